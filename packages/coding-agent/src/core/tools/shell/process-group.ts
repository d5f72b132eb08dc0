import { type ChildProcess, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/*
 * Processes tau started for tools (docs/security.md): a shell command's whole process group, or a
 * single program. However tau ends (exit, SIGINT, SIGTERM, SIGHUP, in every mode) they are killed,
 * so no command keeps running unseen after tau is gone.
 */

/** `group`: spawned `detached`, its own process group. `process`: one program in tau's group. */
export type TrackedKind = "group" | "process";

const liveChildren = new Map<ChildProcess, TrackedKind>();
const SHUTDOWN_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
let shutdownHooksInstalled = false;

function killTracked(): void {
	for (const [child, kind] of liveChildren) {
		if (kind === "group") killProcessTree(child);
		else killQuietly(child.pid);
	}
	liveChildren.clear();
}

function installShutdownHooks(): void {
	if (shutdownHooksInstalled) return;
	shutdownHooksInstalled = true;
	// `exit` listeners run for `process.exit()` and a normal end alike, and may only do synchronous work.
	process.on("exit", killTracked);
	if (process.platform === "win32") return;
	for (const signal of SHUTDOWN_SIGNALS) {
		const onSignal = () => {
			killTracked();
			// A mode that handles the signal owns shutdown; otherwise re-raise it so the default (exit) happens.
			if (process.listenerCount(signal) === 1) {
				process.off(signal, onSignal);
				process.kill(process.pid, signal);
			}
		};
		process.on(signal, onSignal);
	}
}

/** Tracks a spawned child until it exits, so every way tau ends reaches it (and, for a group, its tree). */
export function trackChild(child: ChildProcess, kind: TrackedKind = "group"): void {
	installShutdownHooks();
	liveChildren.set(child, kind);
	child.once("exit", () => liveChildren.delete(child));
}

function killQuietly(pid: number | undefined, signal: NodeJS.Signals = "SIGKILL"): void {
	if (pid === undefined) return;
	try {
		process.kill(pid, signal);
	} catch {
		// Already gone.
	}
}

/**
 * Every live descendant of `pid` (Linux, from /proc): a grandchild that started its own session or
 * group (`setsid`) is out of reach of the group kill, but still a descendant while its parent lives.
 */
function descendantsOf(pid: number): number[] {
	if (process.platform !== "linux") return [];
	const children = new Map<number, number[]>();
	let entries: string[];
	try {
		entries = readdirSync("/proc");
	} catch {
		return [];
	}
	for (const entry of entries) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(join("/proc", entry, "stat"), "utf8");
			// The command name may hold spaces and parentheses: fields start after the last ")".
			const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
			const list = children.get(parent) ?? [];
			list.push(Number(entry));
			children.set(parent, list);
		} catch {
			// The process ended meanwhile.
		}
	}
	const found: number[] = [];
	const pending = [pid];
	while (pending.length > 0) {
		for (const child of children.get(pending.pop()!) ?? []) {
			found.push(child);
			pending.push(child);
		}
	}
	return found;
}

/**
 * Kills the child and everything in its process group immediately, and any descendant that left
 * the group. The child must have been spawned `detached` (its own group) on Unix; Windows uses
 * `taskkill /T`.
 */
export function killProcessTree(child: ChildProcess): void {
	const pid = child.pid;
	if (pid === undefined) return;
	if (process.platform === "win32") {
		const system32 = join(process.env.SystemRoot ?? "C:\\Windows", "System32", "taskkill.exe");
		spawnSync(system32, ["/F", "/T", "/PID", String(pid)], { stdio: "ignore", windowsHide: true });
		return;
	}
	// Found before the kill: once the leader is gone its children belong to init.
	const escaped = descendantsOf(pid);
	try {
		// On macOS a stopped group cannot fork new members between the signal and the kill.
		if (process.platform === "darwin") process.kill(-pid, "SIGSTOP");
		process.kill(-pid, "SIGKILL");
	} catch {
		killQuietly(pid);
	}
	for (const descendant of escaped) killQuietly(descendant);
}
