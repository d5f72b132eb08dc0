import lockfile from "proper-lockfile";

export const DEFAULT_LOCK_STALE_MS = 30_000;

/**
 * The single-writer lock of a session file (`<file>.lock`, refreshed periodically). A lock left by a
 * killed process is reclaimed once it is older than the stale period.
 */
export class SessionLock {
	private constructor(
		readonly path: string,
		private releaseFn: (() => void) | undefined,
	) {}

	/** The lock, or `undefined` when another live process holds it. */
	static tryAcquire(path: string, staleMs: number, onCompromised: (error: Error) => void): SessionLock | undefined {
		try {
			const release = lockfile.lockSync(path, { realpath: false, stale: staleMs, onCompromised });
			return new SessionLock(path, release);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ELOCKED") return undefined;
			throw error;
		}
	}

	release(): void {
		const release = this.releaseFn;
		this.releaseFn = undefined;
		try {
			release?.();
		} catch {
			// The lock directory is already gone (compromised or removed by hand); nothing left to release.
		}
	}
}
