import { readFileSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import lockfile from "proper-lockfile";

export const DEFAULT_LOCK_STALE_MS = 30_000;

/** Who holds a session lock, recorded beside the lock directory (`<file>.lock.holder`). */
interface LockHolder {
	pid: number;
	hostname: string;
}

/** The holder of a session lock as far as it is known (an old lock may have no record). */
export interface SessionLockHolder {
	pid: number | undefined;
	hostname: string | undefined;
}

/** "Session <file> is open in another process (pid 123 on host); opened read-only". */
export function describeLockedSession(file: string, holder: SessionLockHolder): string {
	const where = holder.hostname && holder.hostname !== hostname() ? ` on ${holder.hostname}` : "";
	const who = holder.pid !== undefined ? ` (pid ${holder.pid}${where})` : "";
	return `Session ${file} is open in another process${who}; opened read-only`;
}

/**
 * The single-writer lock of a session file (`<file>.lock`, refreshed periodically). A lock left by a
 * killed process is reclaimed once it is older than the stale period, or at once when its recorded
 * holder is a process of this host that no longer exists (so crash recovery can write right away).
 */
export class SessionLock {
	private constructor(
		readonly path: string,
		private releaseFn: (() => void) | undefined,
	) {}

	/** The lock, or `undefined` when another live process holds it. */
	static tryAcquire(path: string, staleMs: number, onCompromised: (error: Error) => void): SessionLock | undefined {
		const acquire = () => lockfile.lockSync(path, { realpath: false, stale: staleMs, onCompromised });
		let release: () => void;
		try {
			release = acquire();
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
			if (!holderIsDead(path)) return undefined;
			try {
				rmdirSync(lockDirectory(path));
				release = acquire();
			} catch (retryError) {
				// Another process reclaimed the dead holder's lock first.
				if (["ELOCKED", "ENOENT", "ENOTEMPTY"].includes((retryError as NodeJS.ErrnoException).code ?? "")) {
					return undefined;
				}
				throw retryError;
			}
		}
		const holder: LockHolder = { pid: process.pid, hostname: hostname() };
		try {
			writeFileSync(holderFile(path), `${JSON.stringify(holder)}\n`, { mode: 0o600 });
			recordedHolders.add(path);
			if (!exitHookInstalled) {
				exitHookInstalled = true;
				process.once("exit", removeRecordsAtExit);
			}
		} catch {
			// Without the record the lock still works; it just goes stale by age instead of at once.
		}
		return new SessionLock(path, release);
	}

	/** Who holds the lock of `path` according to its record, if there is one. */
	static holderOf(path: string): SessionLockHolder | undefined {
		return readHolder(path);
	}

	release(): void {
		const release = this.releaseFn;
		this.releaseFn = undefined;
		if (!release) return;
		removeRecord(this.path);
		try {
			release();
		} catch {
			// The lock directory is already gone (compromised or removed by hand); nothing left to release.
		}
	}
}

/** Records this process wrote; removed on release, or at exit for locks the library releases itself. */
const recordedHolders = new Set<string>();
let exitHookInstalled = false;

function removeRecord(path: string): void {
	recordedHolders.delete(path);
	try {
		// `unlinkSync`, not `rmSync`: Node 22 loads its recursive-removal module for any `rmSync`, at every exit.
		if (readHolder(path)?.pid === process.pid) unlinkSync(holderFile(path));
	} catch {
		// Best effort: a leftover record only names a dead process, which the next opener ignores.
	}
}

function removeRecordsAtExit(): void {
	for (const path of [...recordedHolders]) removeRecord(path);
}

function lockDirectory(path: string): string {
	return `${path}.lock`;
}

function holderFile(path: string): string {
	return `${path}.lock.holder`;
}

function readHolder(path: string): LockHolder | undefined {
	try {
		const parsed = JSON.parse(readFileSync(holderFile(path), "utf8")) as Partial<LockHolder>;
		if (typeof parsed.pid !== "number" || typeof parsed.hostname !== "string") return undefined;
		return { pid: parsed.pid, hostname: parsed.hostname };
	} catch {
		return undefined;
	}
}

/** Only a holder recorded on this host can be checked; anything else keeps the age-based rule. */
function holderIsDead(path: string): boolean {
	const holder = readHolder(path);
	if (!holder || holder.hostname !== hostname() || holder.pid === process.pid) return false;
	try {
		process.kill(holder.pid, 0);
		return false;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "ESRCH";
	}
}
