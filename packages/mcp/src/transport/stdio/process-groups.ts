import { spawn } from "node:child_process";

/**
 * Process groups led by live stdio servers, with the delay after which each gets SIGKILL. The exit
 * hook ends the groups a host leaves behind, whether it never closed them or stopped waiting.
 */
const liveGroups = new Map<number, number>();
let hookInstalled = false;

/** A detached helper outlives the host to send SIGKILL to groups that ignored SIGTERM. */
const REAPER_SOURCE = `const [delay, ...groups] = process.argv.slice(1).map(Number);
setTimeout(() => { for (const pgid of groups) { try { process.kill(-pgid, "SIGKILL"); } catch {} } }, delay);`;

function terminateLiveGroups(): void {
	const signalled: number[] = [];
	let killAfterMs = 0;
	for (const [pgid, delay] of liveGroups) {
		if (!signalGroup(pgid, "SIGTERM")) continue;
		signalled.push(pgid);
		killAfterMs = Math.max(killAfterMs, delay);
	}
	if (signalled.length === 0) return;
	try {
		const reaper = spawn(process.execPath, ["-e", REAPER_SOURCE, String(killAfterMs), ...signalled.map(String)], {
			detached: true,
			stdio: "ignore",
		});
		reaper.on("error", () => {});
		reaper.unref();
	} catch {
		// Best effort while exiting: the groups already have SIGTERM.
	}
}

export function trackGroup(pgid: number, killAfterMs: number): void {
	liveGroups.set(pgid, killAfterMs);
	if (!hookInstalled) {
		hookInstalled = true;
		process.on("exit", terminateLiveGroups);
	}
}

export function untrackGroup(pgid: number): void {
	liveGroups.delete(pgid);
}

/** Signals the whole group; false when it no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
	try {
		process.kill(-pgid, signal);
		return true;
	} catch {
		return false;
	}
}
