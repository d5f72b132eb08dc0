import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CHILD = fileURLToPath(new URL("./shell-signal-child.mjs", import.meta.url));

/** A killed process whose parent is gone may linger as a zombie until init reaps it: that counts as dead. */
function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
	} catch {
		return true;
	}
}

async function runUntilChild(mode: string) {
	const proc = spawn(process.execPath, [CHILD, mode], { stdio: ["ignore", "pipe", "pipe"] });
	let stdout = "";
	const shellPid = await new Promise<number>((resolve, reject) => {
		proc.stdout.on("data", (chunk: Buffer) => {
			stdout += chunk.toString();
			const match = /child (\d+)/.exec(stdout);
			if (match) resolve(Number(match[1]));
		});
		proc.once("exit", () => reject(new Error(`child exited early: ${stdout}`)));
	});
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
		proc.once("exit", (code, signal) => resolve({ code, signal })),
	);
	return { proc, shellPid, exited, stdout: () => stdout };
}

async function waitUntilDead(pid: number): Promise<boolean> {
	// SIGKILL delivery is asynchronous: poll the process state a bounded number of times.
	for (let i = 0; i < 500 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 10));
	return !isAlive(pid);
}

describe("shell children on a shutdown signal", () => {
	it("kills the command's process group and lets a mode's own SIGTERM handler finish", async () => {
		const run = await runUntilChild("with-handler");
		run.proc.kill("SIGTERM");
		const result = await run.exited;
		expect(result).toEqual({ code: 7, signal: null });
		expect(run.stdout()).toContain("shutdown complete");
		expect(await waitUntilDead(run.shellPid)).toBe(true);
	});

	it("exits by the signal when nothing else handles it", async () => {
		const run = await runUntilChild("without-handler");
		run.proc.kill("SIGTERM");
		expect(await run.exited).toEqual({ code: null, signal: "SIGTERM" });
		expect(await waitUntilDead(run.shellPid)).toBe(true);
	});
});
