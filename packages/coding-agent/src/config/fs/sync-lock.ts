import lockfile from "proper-lockfile";

const SYNC_LOCK_ATTEMPTS = 10;
const SYNC_LOCK_WAIT_MS = 20;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the thread for `ms` milliseconds (used between synchronous lock attempts). */
export function sleepSync(ms: number): void {
	Atomics.wait(sleeper, 0, 0, ms);
}

export interface SyncLockOptions {
	/** Lock file path when it is not `<path>.lock`. */
	lockfilePath?: string;
	/** The wait between attempts; tests replace it to act while the caller is waiting. */
	wait?: (ms: number) => void;
}

/**
 * Takes a `proper-lockfile` lock synchronously: up to 10 attempts 20 ms apart, retrying only
 * `ELOCKED`; other errors and the last failure propagate. Returns the release function.
 */
export function lockSyncWithRetry(path: string, options: SyncLockOptions = {}): () => void {
	const { wait = sleepSync, ...lockOptions } = options;
	for (let attempt = 1; ; attempt++) {
		try {
			return lockfile.lockSync(path, { realpath: false, ...lockOptions });
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "ELOCKED" || attempt >= SYNC_LOCK_ATTEMPTS) throw error;
			wait(SYNC_LOCK_WAIT_MS);
		}
	}
}
