import { createHash } from "node:crypto";
import { closeSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { McpRefreshLockBusyError } from "@tau/mcp/oauth";

export interface RefreshLockTiming {
	/** A lock file older than this belongs to a dead holder (20 s). */
	staleMs?: number;
	/** How long to wait for a live holder (25 s). */
	waitMs?: number;
	/** Poll step (100 ms). */
	stepMs?: number;
	sleep?: (ms: number) => Promise<void>;
	now?: () => number;
}

export function refreshLockPath(agentDir: string, key: string): string {
	return join(agentDir, `mcp-auth-refresh-${createHash("sha256").update(key).digest("hex").slice(0, 16)}`);
}

function tryCreate(path: string): boolean {
	try {
		const fd = openSync(path, "wx", 0o600);
		writeSync(fd, String(process.pid));
		closeSync(fd);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
		throw error;
	}
}

/**
 * Runs `fn` holding a cross-process lock file: one refresh per server at a time, so a rotating
 * refresh token is never spent twice. A stale lock (killed holder) is taken over.
 */
export async function withRefreshLockFile<T>(
	path: string,
	fn: () => Promise<T>,
	timing: RefreshLockTiming = {},
): Promise<T> {
	const staleMs = timing.staleMs ?? 20_000;
	const waitMs = timing.waitMs ?? 25_000;
	const stepMs = timing.stepMs ?? 100;
	const sleep = timing.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
	const now = timing.now ?? Date.now;
	const deadline = now() + waitMs;
	for (;;) {
		if (tryCreate(path)) break;
		let age = 0;
		try {
			age = now() - statSync(path).mtimeMs;
		} catch {
			continue;
		}
		if (age > staleMs) {
			rmSync(path, { force: true });
			continue;
		}
		if (now() >= deadline) throw new McpRefreshLockBusyError();
		await sleep(stepMs);
	}
	try {
		return await fn();
	} finally {
		rmSync(path, { force: true });
	}
}
