import { mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import lockfile from "proper-lockfile";
import { writeFileAtomicSync } from "../../core/fs/atomic-write.js";
import { lockSyncWithRetry } from "../fs/sync-lock.js";
import { getAgentDir } from "../paths.js";

export interface AuthLockOptions {
	signal?: AbortSignal;
}

/** Where auth.json text lives; every access is one locked read-modify-write transaction. */
export interface AuthStorageBackend {
	withLock<T>(fn: (current?: string) => { result: T; next?: string }): T;
	withLockAsync<T>(
		fn: (current?: string) => Promise<{ result: T; next?: string }>,
		options?: AuthLockOptions,
	): Promise<T>;
	/**
	 * Reads the current text without the lock. Writes replace the file atomically, so a reader
	 * never sees a partial file and need not wait for a writer's lock.
	 */
	readCurrent?(): string | undefined;
	/** A token that changes whenever the stored text may have changed (read cache key). */
	revision?(): string | undefined;
	/** The file behind the backend, for diagnostics and the shared read cache. */
	readonly path?: string;
}

const AUTH_FILE_MODE = 0o600;
const ABSENT_REVISION = "absent";
const AUTH_DIR_MODE = 0o700;
const ASYNC_LOCK_DEADLINE_MS = 30_000;
const ASYNC_LOCK_STALE_MS = 30_000;

/** The async file lock: proper-lockfile's `lock`, replaceable so tests can stage a compromised lock. */
export type AsyncFileLock = (
	path: string,
	options: { stale: number; realpath: false; onCompromised: (error: Error) => void },
) => Promise<() => Promise<void>>;

export function defaultAuthPath(): string {
	return join(getAgentDir(), "auth.json");
}

/** auth.json on disk: created `{}` with mode 0600 (directory 0700), written atomically under a lock. */
export class FileAuthStorageBackend implements AuthStorageBackend {
	constructor(
		readonly path: string = defaultAuthPath(),
		private readonly lockFile: AsyncFileLock = lockfile.lock,
	) {}

	/**
	 * `dev:ino:size:mtimeNs:ctimeNs`, or `absent` while there is no file: users with only environment
	 * keys have no auth.json, and without a token of its own every read would re-read the missing file.
	 */
	revision(): string | undefined {
		try {
			const stat = statSync(this.path, { bigint: true, throwIfNoEntry: false });
			if (stat === undefined) return ABSENT_REVISION;
			return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
		} catch {
			return undefined;
		}
	}

	readCurrent(): string | undefined {
		try {
			return readFileSync(this.path, "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
			throw error;
		}
	}

	withLock<T>(fn: (current?: string) => { result: T; next?: string }): T {
		const real = this.ensureFile();
		const release = lockSyncWithRetry(real);
		try {
			const { result, next } = fn(readFileSync(real, "utf8"));
			if (next !== undefined) writeFileAtomicSync(real, next, { newFileMode: AUTH_FILE_MODE });
			return result;
		} finally {
			release();
		}
	}

	async withLockAsync<T>(
		fn: (current?: string) => Promise<{ result: T; next?: string }>,
		options: AuthLockOptions = {},
	): Promise<T> {
		const real = this.ensureFile();
		let compromised: Error | undefined;
		const release = await acquireAsyncLock(this.lockFile, real, options.signal, (error) => {
			compromised = error;
		});
		try {
			const { result, next } = await fn(readFileSync(real, "utf8"));
			if (compromised) throw compromised;
			if (next !== undefined) writeFileAtomicSync(real, next, { newFileMode: AUTH_FILE_MODE });
			if (compromised) throw compromised;
			return result;
		} finally {
			await release().catch(() => undefined);
		}
	}

	/** Creates the directory (0700) and an empty `{}` file (0600) when missing; returns the real path. */
	private ensureFile(): string {
		mkdirSync(dirname(this.path), { recursive: true, mode: AUTH_DIR_MODE });
		try {
			writeFileSync(this.path, "{}", { flag: "wx", mode: AUTH_FILE_MODE });
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
		}
		// Symlinked aliases of one file share one lock.
		return realpathSync(this.path);
	}
}

/** Waits for the async lock with exponential backoff until a 30 s deadline; `signal` aborts the wait. */
async function acquireAsyncLock(
	lockFile: AsyncFileLock,
	path: string,
	signal: AbortSignal | undefined,
	onCompromised: (error: Error) => void,
): Promise<() => Promise<void>> {
	const deadline = Date.now() + ASYNC_LOCK_DEADLINE_MS;
	let windowsPermissionRetries = 0;
	for (let attempt = 0; ; attempt++) {
		signal?.throwIfAborted();
		try {
			const release = await lockFile(path, { stale: ASYNC_LOCK_STALE_MS, realpath: false, onCompromised });
			// The caller gave up while this attempt was in flight: do not run the transaction.
			if (signal?.aborted) {
				await release();
				signal.throwIfAborted();
			}
			return release;
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			const retryable =
				code === "ELOCKED" || (code === "EPERM" && process.platform === "win32" && windowsPermissionRetries++ < 5);
			const remaining = deadline - Date.now();
			if (!retryable || remaining <= 0) throw error;
			const delay = Math.min(Math.min(10 * 2 ** attempt, 1000) * (1 + Math.random()), remaining);
			await abortableDelay(delay, signal);
		}
	}
}

function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) {
			reject(signal.reason);
			return;
		}
		const onAbort = () => {
			clearTimeout(timer);
			reject(signal?.reason);
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}

/** One string slot; async transactions run one at a time through a promise chain. */
export class InMemoryAuthStorageBackend implements AuthStorageBackend {
	private text: string | undefined;
	private chain: Promise<unknown> = Promise.resolve();
	private version = 0;

	constructor(text?: string) {
		this.text = text;
	}

	revision(): string {
		return String(this.version);
	}

	withLock<T>(fn: (current?: string) => { result: T; next?: string }): T {
		const { result, next } = fn(this.text);
		this.store(next);
		return result;
	}

	withLockAsync<T>(
		fn: (current?: string) => Promise<{ result: T; next?: string }>,
		options: AuthLockOptions = {},
	): Promise<T> {
		const { signal } = options;
		const run = async (): Promise<T> => {
			signal?.throwIfAborted();
			const { result, next } = await fn(this.text);
			this.store(next);
			return result;
		};
		const task = this.chain.then(run, run);
		this.chain = task.catch(() => undefined);
		if (!signal) return task;
		// Aborting releases the caller, not the queued transaction's place in line.
		return Promise.race([
			task,
			new Promise<never>((_, reject) => {
				if (signal.aborted) reject(signal.reason);
				signal.addEventListener("abort", () => reject(signal.reason), { once: true });
			}),
		]);
	}

	private store(next: string | undefined): void {
		if (next === undefined) return;
		this.text = next;
		this.version++;
	}
}
