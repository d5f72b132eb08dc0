import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isAlive, waitUntilDead } from "../support/processes.js";
import { CLI, cliBuilt, mockServer, type Sandbox, sandbox, writeMockModels } from "./harness.js";
import { hasScript, startCliInTerminal } from "./terminal.js";

/**
 * The bash command the model runs: a background grandchild in its process group, one that leaves
 * the group (`setsid`), and the pids (tau is the shell's parent) written where the test reads them.
 */
const COMMAND = 'sleep 300 & a=$!; setsid sleep 300 & b=$!; echo "$PPID $$ $a $b" > pids.txt; wait';

type Mode = "print" | "json" | "rpc" | "interactive";
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Polls for a condition outside this process; the bound only turns a hang into a failure. */
async function until(condition: () => boolean): Promise<boolean> {
	for (let i = 0; i < 3000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
	return condition();
}

let leftovers: number[] = [];
afterEach(() => {
	for (const pid of leftovers) {
		try {
			process.kill(pid, "SIGKILL");
		} catch {
			// Gone, as it should be.
		}
	}
	leftovers = [];
});

/** Starts tau in `mode` with a prompt that runs COMMAND; returns when the command wrote its pids. */
async function startWithRunningTool(box: Sandbox, mode: Mode): Promise<{ tau: number; tools: number[] }> {
	const prompt = "run the command";
	if (mode === "interactive") startCliInTerminal(box, [prompt]);
	else {
		const args = mode === "print" ? ["-p", prompt] : mode === "json" ? ["--mode", "json", prompt] : ["--mode", "rpc"];
		// Print and JSON modes read piped stdin to its end: give them none.
		const child = spawn(process.execPath, [CLI, ...args], {
			cwd: box.project,
			env: box.env,
			stdio: [mode === "rpc" ? "pipe" : "ignore", "ignore", "ignore"],
		});
		if (mode === "rpc") child.stdin?.write(`${JSON.stringify({ type: "prompt", message: prompt })}\n`);
	}
	const pidsFile = join(box.project, "pids.txt");
	expect(
		await until(() => existsSync(pidsFile) && readFileSync(pidsFile, "utf8").trim().split(" ").length === 4),
	).toBe(true);
	const [tau, ...tools] = readFileSync(pidsFile, "utf8").trim().split(" ").map(Number) as [number, ...number[]];
	leftovers = [tau, ...tools];
	return { tau, tools };
}

const MODES: Mode[] = hasScript ? ["print", "json", "rpc", "interactive"] : ["print", "json", "rpc"];

describe.skipIf(!cliBuilt)(
	"a signal to tau ends the tool processes it started (built CLI; interactive needs util-linux script)",
	() => {
		it.each(MODES.flatMap((mode) => SIGNALS.map((signal) => [mode, signal] as const)))(
			"%s mode, %s: tau exits and the command, its grandchild and a setsid grandchild are gone",
			async (mode, signal) => {
				const box = sandbox();
				const server = await mockServer();
				writeMockModels(box, server);
				server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: COMMAND } }] });
				server.setFactory(() => ({ text: "done" }));
				const { tau, tools } = await startWithRunningTool(box, mode);
				for (const pid of tools) expect(isAlive(pid)).toBe(true);
				process.kill(tau, signal);
				expect(await waitUntilDead(tau)).toBe(true);
				for (const pid of tools) expect(await waitUntilDead(pid)).toBe(true);
			},
			60_000,
		);
	},
);
