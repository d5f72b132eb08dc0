import { type ChildProcess, spawnSync } from "node:child_process";
import { join } from "node:path";

/** Children still running, killed as groups if tau itself is told to terminate. */
const liveChildren = new Set<ChildProcess>();
let shutdownHooksInstalled = false;

function installShutdownHooks(): void {
	if (shutdownHooksInstalled) return;
	shutdownHooksInstalled = true;
	for (const signal of ["SIGHUP", "SIGTERM"] as const) {
		process.once(signal, () => {
			for (const child of liveChildren) killProcessTree(child);
			// A mode that handles the signal owns shutdown; otherwise re-raise so the default (exit) happens.
			if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
		});
	}
}

/** Tracks a spawned child until it exits so shutdown signals reach its whole tree. */
export function trackChild(child: ChildProcess): void {
	installShutdownHooks();
	liveChildren.add(child);
	child.once("exit", () => liveChildren.delete(child));
}

/**
 * Kills the child and everything in its process group immediately. The child must have been
 * spawned `detached` (its own group) on Unix; Windows uses `taskkill /T`.
 */
export function killProcessTree(child: ChildProcess): void {
	const pid = child.pid;
	if (pid === undefined) return;
	if (process.platform === "win32") {
		const system32 = join(process.env.SystemRoot ?? "C:\\Windows", "System32", "taskkill.exe");
		spawnSync(system32, ["/F", "/T", "/PID", String(pid)], { stdio: "ignore", windowsHide: true });
		return;
	}
	try {
		// On macOS a stopped group cannot fork new members between the signal and the kill.
		if (process.platform === "darwin") process.kill(-pid, "SIGSTOP");
		process.kill(-pid, "SIGKILL");
	} catch {
		try {
			process.kill(pid, "SIGKILL");
		} catch {
			// Already gone.
		}
	}
}
