/**
 * The built CLI with MCP servers that hang or are real: `-p` answers and exits, and no server process
 * outlives it, whatever the servers do.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import {
	realServersInstalled,
	SERVER_EVERYTHING,
	SERVER_FILESYSTEM,
	SERVER_MEMORY,
	writeMcpJson,
} from "../builtin/mcp/harness.js";
import { cliBuilt, mockServer, REPO_ROOT, runCli, type Sandbox, sandbox, writeMockModels } from "./harness.js";

const SCRIPTED = join(REPO_ROOT, "packages/coding-agent/test/builtin/mcp/fixtures/scripted-server.mjs");
const stubborn = (pidFile: string, ...flags: string[]) => ({
	command: process.execPath,
	args: [SCRIPTED, "--stubborn", "--pid", pidFile, ...flags],
});

const hasProc = existsSync("/proc/self/environ");

/**
 * Live processes started by one run: everything tau spawns inherits its environment, so a marker
 * variable finds them even after tau exited and they were re-parented.
 */
function markedProcesses(marker: string): number[] {
	const pids: number[] = [];
	for (const name of readdirSync("/proc")) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const status = readFileSync(`/proc/${name}/stat`, "utf8");
			if (/^\d+ \(.*\) Z/.test(status)) continue;
			if (readFileSync(`/proc/${name}/environ`, "utf8").includes(marker)) pids.push(Number(name));
		} catch {
			// The process ended meanwhile, or is not ours to read.
		}
	}
	return pids;
}

/** Runs tau in `box` with a marker in its environment; returns the result and the marker. */
async function runMarked(box: Sandbox, args: string[], env: NodeJS.ProcessEnv = {}) {
	const marker = `TAU_TEST_RUN=${randomUUID()}`;
	const [name, value] = marker.split("=") as [string, string];
	const result = await runCli(box, args, { env: { ...env, [name]: value } });
	return { result, marker };
}

describe.skipIf(!cliBuilt || !hasProc)("tau -p with MCP servers that hang (built CLI; skipped without /proc)", () => {
	it("a server hung at initialize is never started for a prompt that does not need it", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "answer" });
		const pidFile = join(box.home, "hung.pid");
		writeMcpJson(box.agentDir, { hung: { ...stubborn(pidFile, "--hang", "initialize"), timeout: 600 } });
		const result = await runCli(box, ["--no-session", "-p", "hi"]);
		expect(result).toMatchObject({ code: 0, stdout: "answer\n" });
		expect(existsSync(pidFile)).toBe(false);
	});

	it("after a call hung mid-call, the answer is printed, tau exits and the stubborn server is killed", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue(
			{ toolCalls: [{ id: "c1", name: "mcp__hung__alpha", arguments: {} }], stopReason: "toolUse" },
			{ text: "gave up" },
		);
		const pidFile = join(box.home, "hung.pid");
		// `direct`, so the first request declares the tool; the call hangs until its 1 s timeout.
		writeMcpJson(box.agentDir, { hung: { ...stubborn(pidFile, "--hang", "call"), exposure: "direct", timeout: 1 } });
		const { result, marker } = await runMarked(box, ["--no-session", "-p", "call it"]);
		expect(result).toMatchObject({ code: 0, stdout: "gave up\n" });
		expect(existsSync(pidFile)).toBe(true);
		// It ignores stdin EOF and SIGTERM: the reaper tau leaves behind sends SIGKILL, then ends itself.
		await vi.waitFor(() => expect(markedProcesses(marker)).toEqual([]), { timeout: 10_000 });
	});
});

describe.skipIf(!cliBuilt || !realServersInstalled || !hasProc)(
	"tau -p with three real servers (built CLI; skipped without TAU_MCP_SERVERS or /proc)",
	() => {
		it("answers, exits, and leaves no server behind, also when the run used them", async () => {
			const box = sandbox();
			const server = await mockServer();
			writeMockModels(box, server);
			writeMcpJson(box.agentDir, {
				everything: { command: SERVER_EVERYTHING, exposure: "direct" },
				fs: { command: SERVER_FILESYSTEM, args: [box.project], exposure: "direct" },
				memory: { command: SERVER_MEMORY, exposure: "direct" },
			});
			server.enqueue(
				{
					toolCalls: [{ id: "c1", name: "mcp__everything__echo", arguments: { message: "hi" } }],
					stopReason: "toolUse",
				},
				{ text: "echoed" },
			);
			const { result, marker } = await runMarked(box, ["--no-session", "-p", "echo"], {
				MEMORY_FILE_PATH: join(box.home, "memory.jsonl"),
			});
			expect(result).toMatchObject({ code: 0, stdout: "echoed\n" });
			expect(JSON.stringify(server.requests[1]?.body)).toContain("Echo: hi");
			await vi.waitFor(() => expect(markedProcesses(marker)).toEqual([]), { timeout: 10_000 });
		});
	},
);
