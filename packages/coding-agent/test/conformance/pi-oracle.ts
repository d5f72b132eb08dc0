import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MockLlmServer } from "@tau/testkit";
import { afterEach } from "vitest";
import { API_KEY, CLI, cliBuilt, type Sandbox } from "../e2e/harness.js";

// pi 1.6 itself, as a black-box oracle: ./test.sh installs it with scripts/pi-reference.mjs (from the
// npm registry, with the Node 22 it needs) and passes the paths in.
const PI_NODE = process.env.TAU_PI_NODE ?? "";
const PI_CLI = process.env.TAU_PI_CLI ?? "";

/** Why the differential tests cannot run, or undefined when both programs are there. */
export const oracleMissing: string | undefined = !cliBuilt
	? "the tau CLI is not built (npx tsc -b packages/coding-agent)"
	: PI_NODE === "" || PI_CLI === ""
		? "TAU_PI_NODE/TAU_PI_CLI are not set (./test.sh sets them from scripts/pi-reference.mjs)"
		: !existsSync(PI_NODE) || !existsSync(PI_CLI)
			? `the pi reference is missing (${PI_CLI})`
			: undefined;

export type ProgramName = "tau" | "pi";
export const PROGRAMS: readonly ProgramName[] = ["tau", "pi"];

/** How to start one program in a sandbox: both share the agent dir (settings, models.json, sessions). */
function command(program: ProgramName, box: Sandbox): { file: string; args: string[]; env: NodeJS.ProcessEnv } {
	if (program === "tau") return { file: process.execPath, args: [CLI], env: box.env };
	return {
		file: PI_NODE,
		args: [PI_CLI],
		env: { ...box.env, PI_CODING_AGENT_DIR: box.agentDir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1" },
	};
}

/** Children still running when a test ends (it failed or timed out) are killed. */
const running = new Set<ChildProcess>();
afterEach(() => {
	for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
	running.clear();
});

function startProgram(program: ProgramName, box: Sandbox, args: readonly string[]): ChildProcess {
	const { file, args: base, env } = command(program, box);
	const child = spawn(file, [...base, ...args], { cwd: box.project, env, stdio: ["pipe", "pipe", "pipe"] });
	running.add(child);
	return child;
}

interface ProgramRun {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** Runs a program to completion with stdin closed. */
export function runProgram(program: ProgramName, box: Sandbox, args: readonly string[]): Promise<ProgramRun> {
	const child = startProgram(program, box, args);
	child.stdin?.end();
	let stdout = "";
	let stderr = "";
	child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
	child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
	return new Promise((resolve, reject) => {
		child.on("error", reject);
		child.on("close", (code) => resolve({ code, stdout, stderr }));
	});
}

/** A JSON object: a line of stdout, a command, a settings layer. */
export type JsonRecord = { [key: string]: unknown };

/**
 * Drives `--mode rpc`: one command at a time, each answered before the next is sent, with every
 * other line (events, extension UI requests) collected in order.
 */
export class RpcSession {
	readonly lines: JsonRecord[] = [];
	stderr = "";
	private buffer = "";
	private nextId = 0;
	private waiters: { test: (line: JsonRecord) => boolean; resolve: (line: JsonRecord) => void }[] = [];
	private readonly exited: Promise<number | null>;

	private constructor(private readonly child: ChildProcess) {
		child.stdout?.setEncoding("utf8").on("data", (chunk: string) => this.receive(chunk));
		child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (this.stderr += chunk));
		this.exited = new Promise((resolve) => child.on("close", (code) => resolve(code)));
	}

	static start(program: ProgramName, box: Sandbox, args: readonly string[] = []): RpcSession {
		return new RpcSession(startProgram(program, box, ["--mode", "rpc", ...args]));
	}

	private receive(chunk: string): void {
		this.buffer += chunk;
		for (let newline = this.buffer.indexOf("\n"); newline >= 0; newline = this.buffer.indexOf("\n")) {
			const text = this.buffer.slice(0, newline);
			this.buffer = this.buffer.slice(newline + 1);
			if (text.trim() === "") continue;
			const line = JSON.parse(text) as JsonRecord;
			this.lines.push(line);
			for (const waiter of [...this.waiters]) {
				if (!waiter.test(line)) continue;
				this.waiters.splice(this.waiters.indexOf(waiter), 1);
				waiter.resolve(line);
			}
		}
	}

	/** Resolves with the first line (already received or future) that passes `test`, after `from`. */
	waitFor(test: (line: JsonRecord) => boolean, from = 0): Promise<JsonRecord> {
		const seen = this.lines.slice(from).find(test);
		if (seen) return Promise.resolve(seen);
		return new Promise((resolve) => this.waiters.push({ test, resolve }));
	}

	/** Sends a command and resolves with its response. */
	send(command: JsonRecord): Promise<JsonRecord> {
		const id = `c${++this.nextId}`;
		const response = this.waitFor((line) => line.type === "response" && line.id === id);
		this.child.stdin?.write(`${JSON.stringify({ ...command, id })}\n`);
		return response;
	}

	/** Closes stdin and waits for the exit code. */
	async close(): Promise<number | null> {
		this.child.stdin?.end();
		return this.exited;
	}
}

export type MockApi = "anthropic-messages" | "openai-completions" | "openai-responses";

/** models.json with provider `mock` speaking `api` (default Anthropic Messages); its one model can think. */
export function writeThinkingMockModels(
	box: Sandbox,
	server: MockLlmServer,
	settings: JsonRecord = {},
	api: MockApi = "anthropic-messages",
): void {
	const models = {
		providers: {
			mock: {
				baseUrl: api === "anthropic-messages" ? server.baseUrl : server.url("/v1"),
				api,
				apiKey: API_KEY,
				models: [
					{
						id: "mock-model",
						name: "Mock Model",
						reasoning: true,
						input: ["text", "image"],
						contextWindow: 200_000,
						maxTokens: 8192,
						cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
					},
				],
			},
		},
	};
	writeFileSync(join(box.agentDir, "models.json"), JSON.stringify(models));
	writeFileSync(
		join(box.agentDir, "settings.json"),
		JSON.stringify({ defaultProvider: "mock", defaultModel: "mock-model", retry: { baseDelayMs: 1 }, ...settings }),
	);
}
