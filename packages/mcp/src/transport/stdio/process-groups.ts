/** Process groups led by live stdio servers; an exit hook terminates them if the host never closes. */
const liveGroups = new Set<number>();
let hookInstalled = false;

function terminateLiveGroups(): void {
	for (const pgid of liveGroups) signalGroup(pgid, "SIGTERM");
}

export function trackGroup(pgid: number): void {
	liveGroups.add(pgid);
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
