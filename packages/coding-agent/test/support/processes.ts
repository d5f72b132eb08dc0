import { type SpawnOptions, spawn } from "node:child_process";
import { readFileSync } from "node:fs";

/** True until the process is gone (a zombie awaiting its reaper counts as gone). */
export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
	} catch {
		// Without /proc (macOS), signal 0 succeeding is all there is to know.
		return true;
	}
}

/**
 * Waits until the process is gone; SIGKILL delivery is asynchronous. The bound only turns a hang
 * into a failure (false).
 */
export async function waitUntilDead(pid: number): Promise<boolean> {
	for (let i = 0; i < 3000 && isAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 10));
	return !isAlive(pid);
}

/** Runs a command to its end and resolves with its standard output; a non-zero exit rejects with its standard error. */
export function outputOf(command: string, args: string[], options: SpawnOptions = {}): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
		let out = "";
		let err = "";
		child.stdout!.on("data", (chunk) => (out += chunk));
		child.stderr!.on("data", (chunk) => (err += chunk));
		child.on("error", reject);
		child.on("close", (code) =>
			code === 0 ? resolve(out) : reject(new Error(`${command} exited with ${code}: ${err}`)),
		);
	});
}
