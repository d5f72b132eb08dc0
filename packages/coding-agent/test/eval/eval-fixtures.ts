import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MockLlmServer, type RecordedRequest, type ScriptedReply, startMockLlmServer } from "@tau/testkit";
import { afterEach } from "vitest";

export const API_KEY = "eval-test-key";
/** Every scripted turn reports this usage; with the model's prices below each turn costs $0.12. */
export const TURN_USAGE = { input: 100, output: 10 };
export const TURN_COST = (100 * 1000 + 10 * 2000) / 1_000_000;
export const TURN_TOKENS = 110;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A temp dir removed after the test. */
export function tempDir(label: string): string {
	const dir = mkdtempSync(join(tmpdir(), `tau-eval-${label}-`));
	cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
	return dir;
}

function writeExecutable(path: string, text: string): void {
	writeFileSync(path, text);
	chmodSync(path, 0o755);
}

/** One Harbor task directory with a verifier script and a reference solution. */
export function writeTask(suite: string, name: string, files: { test: string; solve: string; instruction?: string }) {
	const dir = join(suite, name);
	mkdirSync(join(dir, "environment"), { recursive: true });
	mkdirSync(join(dir, "tests"), { recursive: true });
	mkdirSync(join(dir, "solution"), { recursive: true });
	writeFileSync(join(dir, "instruction.md"), files.instruction ?? `Solve task ${name}.\n`);
	writeFileSync(
		join(dir, "task.toml"),
		'version = "1.0"\n\n[agent]\ntimeout_sec = 120.0\n\n[verifier]\ntimeout_sec = 60.0\n',
	);
	writeFileSync(join(dir, "environment", "notes.md"), `Notes for ${name}.\n`);
	writeExecutable(join(dir, "tests", "test.sh"), `#!/bin/bash\n${files.test}\n`);
	writeExecutable(join(dir, "solution", "solve.sh"), `#!/bin/bash\n${files.solve}\n`);
	return dir;
}

/**
 * The suite the metrics tests run: `alpha` and `beta` pass when answer.txt holds their answer (exit
 * status decides); `gamma` copies score.txt into reward.txt and crashes (exit 3) on "crash".
 */
export function writeSuite(): string {
	const suite = tempDir("suite");
	writeTask(suite, "alpha", { test: '[ "$(cat answer.txt 2>/dev/null)" = "42" ]', solve: "echo 42 > answer.txt" });
	writeTask(suite, "beta", { test: '[ "$(cat answer.txt 2>/dev/null)" = "7" ]', solve: "echo 7 > answer.txt" });
	writeTask(suite, "gamma", {
		test: [
			'score="$(cat score.txt 2>/dev/null || echo 0)"',
			'if [ "$score" = "crash" ]; then exit 3; fi',
			'mkdir -p "$LOGS_DIR/verifier" && echo "$score" > "$LOGS_DIR/verifier/reward.txt"',
		].join("\n"),
		solve: "echo 1 > score.txt",
	});
	return suite;
}

/** What the scripted agent does in one trial: a tool call (then "done"), or a provider outage. */
export type TrialScript =
	| { tool: "write"; path: string; content: string }
	| { tool: "bash"; command: string }
	| { outage: true }
	/** The model never answers (the agent's time limit ends the trial). */
	| { stall: true };

/**
 * Per-trial scripts of the metrics suite (`task#trial`): alpha passes 0 and 2, beta passes 0 and has
 * an outage on 3, gamma scores 1, crash, 0.5 and 1.
 */
export const SUITE_SCRIPTS: Record<string, TrialScript> = {
	"alpha#0": { tool: "write", path: "answer.txt", content: "42" },
	"alpha#1": { tool: "write", path: "answer.txt", content: "41" },
	"alpha#2": { tool: "write", path: "answer.txt", content: "42" },
	"alpha#3": { tool: "write", path: "answer.txt", content: "nope" },
	"beta#0": { tool: "write", path: "answer.txt", content: "7" },
	"beta#1": { tool: "write", path: "answer.txt", content: "8" },
	"beta#2": { tool: "write", path: "answer.txt", content: "9" },
	"beta#3": { outage: true },
	"gamma#0": { tool: "write", path: "score.txt", content: "1" },
	"gamma#1": { tool: "write", path: "score.txt", content: "crash" },
	"gamma#2": { tool: "write", path: "score.txt", content: "0.5" },
	"gamma#3": { tool: "write", path: "score.txt", content: "1" },
};

/** The trial a request belongs to, read from the workspace path in its system prompt. */
export function trialOf(request: RecordedRequest): string | undefined {
	const system = JSON.stringify((request.body as { system?: unknown } | undefined)?.system ?? "");
	const match = /trials\/([^/"\\]+)\/(\d+)\/workspace/.exec(system);
	return match ? `${match[1]}#${match[2]}` : undefined;
}

/** Whether the request answers a tool call (the scripted agent then finishes). */
function afterToolResult(request: RecordedRequest): boolean {
	const messages = (request.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
	const last = messages.at(-1);
	return Array.isArray(last?.content) && last.content.some((block: { type?: string }) => block.type === "tool_result");
}

/** A mock Anthropic server whose replies follow `scripts`, keyed by the trial of each request. */
export async function scriptedServer(
	scripts: Record<string, TrialScript>,
	onRequest?: (trial: string | undefined, request: RecordedRequest) => void,
): Promise<MockLlmServer> {
	const server = await startMockLlmServer({
		apiKey: API_KEY,
		idleTimeoutMs: 0,
		maxLifetimeMs: 0,
		factory: (request): ScriptedReply => {
			const trial = trialOf(request);
			onRequest?.(trial, request);
			const script = trial ? scripts[trial] : undefined;
			if (!script) return { text: `no script for ${trial}`, usage: TURN_USAGE };
			if ("outage" in script) return { fault: { kind: "http", status: 503, message: "overloaded" } };
			if ("stall" in script) return { fault: { kind: "stall" } };
			if (afterToolResult(request)) return { text: "done", usage: TURN_USAGE };
			const args =
				script.tool === "write" ? { path: script.path, content: script.content } : { command: script.command };
			return { toolCalls: [{ name: script.tool, arguments: args }], stopReason: "toolUse", usage: TURN_USAGE };
		},
	});
	cleanups.push(() => server.close());
	return server;
}

/**
 * A user agent dir whose models.json points provider `mock` at the server (or, with `keyIn: "auth.json"`,
 * the built-in `anthropic` provider with its key in auth.json), and a settings file without retries.
 */
export function userAgentDir(
	server: MockLlmServer,
	options: { keyIn?: "models.json" | "auth.json" } = {},
): { agentDir: string; settings: string } {
	const agentDir = tempDir("agent");
	const models = {
		providers: {
			mock: {
				baseUrl: server.baseUrl,
				api: "anthropic-messages",
				apiKey: API_KEY,
				models: [
					{
						id: "mock-model",
						name: "Mock Model",
						reasoning: false,
						input: ["text"],
						contextWindow: 200_000,
						maxTokens: 8192,
						cost: { input: 1000, output: 2000, cacheRead: 0, cacheWrite: 0 },
					},
				],
			},
		},
	};
	if (options.keyIn === "auth.json") {
		// The built-in anthropic provider sent to the server, its key stored as `tau auth` stores it.
		writeFileSync(
			join(agentDir, "models.json"),
			JSON.stringify({ providers: { anthropic: { baseUrl: server.baseUrl } } }),
		);
		writeFileSync(join(agentDir, "auth.json"), JSON.stringify({ anthropic: { type: "api_key", key: API_KEY } }), {
			mode: 0o600,
		});
	} else writeFileSync(join(agentDir, "models.json"), JSON.stringify(models));
	const settings = join(agentDir, "eval-settings.json");
	writeFileSync(settings, JSON.stringify({ retry: { enabled: false } }));
	return { agentDir, settings };
}

/** Captured output of an in-process `main()` call. */
export function captureIO() {
	const out = { stdout: "", stderr: "" };
	return {
		out,
		io: {
			stdout: (text: string) => {
				out.stdout += text;
			},
			stderr: (text: string) => {
				out.stderr += text;
			},
		},
	};
}

/** `tau eval run` of `suite` with the scripted mock model and the local backend, writing to `out`. */
export function evalRunArgs(suite: string, settings: string, out: string, ...extra: string[]): string[] {
	return [
		"eval",
		"run",
		suite,
		"--model",
		"mock/mock-model",
		"--settings",
		settings,
		"--backend",
		"local",
		"--out",
		out,
		...extra,
	];
}
