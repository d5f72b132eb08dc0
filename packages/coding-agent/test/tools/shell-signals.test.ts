import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { waitUntilDead } from "../support/processes.js";

const CHILD = fileURLToPath(new URL("./shell-signal-child.mjs", import.meta.url));

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
