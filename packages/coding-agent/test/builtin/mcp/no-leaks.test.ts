/**
 * One long session through the real Anthropic adapter (mock server on 127.0.0.1): 1,000 MCP calls
 * (direct and from codemode scripts) and 1,000 plain `read` calls. Listener, timer and process
 * counts must stay flat and Node must never warn about too many listeners (issue: an abort listener
 * per MCP call, and per provider request, was never removed).
 */
import { execFileSync } from "node:child_process";
import { getEventListeners } from "node:events";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Api, anthropicMessagesApi, createProvider, type Model } from "@tau/ai";
import { AuthStorage, type ExtensionAPI, ModelRuntime } from "@tau/coding-agent";
import { type MockLlmServer, type MockToolCall, type ScriptedReply, startMockLlmServer } from "@tau/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { CodemodeWorkerPool, createCodemodeExtension } from "../../../src/builtin/codemode/index.js";
import { createMcpHarness, type McpHarness, shutdownAndAssertNoProcesses, waitForTools } from "./harness.js";

const SCRIPTED = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));
const API_KEY = "leak-key";
const TURNS = 20;
const DIRECT_MCP_PER_TURN = 25;
const SCRIPT_MCP_PER_TURN = 25;
const READS_PER_TURN = 50;

let server: MockLlmServer | undefined;
let h: McpHarness | undefined;
afterEach(async () => {
	if (h) await shutdownAndAssertNoProcesses(h);
	await server?.close();
	h = undefined;
	server = undefined;
});

/** A model runtime whose only model talks to `server` through the real Anthropic Messages adapter. */
function mockModelRuntime(mock: MockLlmServer): { modelRuntime: ModelRuntime; model: Model<Api> } {
	const model: Model<Api> = {
		id: "mock-model",
		name: "Mock",
		api: "anthropic-messages",
		provider: "mock",
		baseUrl: mock.baseUrl,
		input: ["text"],
		reasoning: false,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 10_000_000,
		maxTokens: 8192,
	};
	const modelRuntime = new ModelRuntime({
		credentials: AuthStorage.inMemory(),
		builtinProviders: [],
		modelsJsonPath: null,
	});
	modelRuntime.registerProvider(
		"mock",
		createProvider({
			id: "mock",
			auth: { apiKey: { name: "Mock", resolve: async () => ({ auth: { apiKey: API_KEY } }) } },
			models: [model],
			api: anthropicMessagesApi(),
		}),
	);
	return { modelRuntime, model };
}

/** One turn of calls: direct MCP calls, reads, and a script making more MCP calls. */
function turn(index: number): ScriptedReply {
	const toolCalls: MockToolCall[] = [];
	for (let i = 0; i < DIRECT_MCP_PER_TURN; i++) {
		toolCalls.push({ id: `m${index}_${i}`, name: "mcp__leak__alpha", arguments: {} });
	}
	for (let i = 0; i < READS_PER_TURN; i++) {
		toolCalls.push({ id: `r${index}_${i}`, name: "read", arguments: { path: "file.txt" } });
	}
	// Side by side, like a script's Promise.all: nested calls must not pile listeners onto the script's signal.
	const code = `await Promise.all(Array.from({ length: ${SCRIPT_MCP_PER_TURN} }, () => tools.mcp__leak__beta({})));\ntext("ok");`;
	toolCalls.push({ id: `c${index}`, name: "codemode", arguments: { code } });
	return { toolCalls, stopReason: "toolUse" };
}

/** Live processes in this test process' tree (servers and their children), by pid. */
function descendants(): number[] {
	const rows = execFileSync("ps", ["-A", "-o", "pid=,ppid=,stat="], { encoding: "utf8" })
		.split("\n")
		.map((line) => line.trim().split(/\s+/))
		.filter((parts) => parts.length === 3 && !parts[2]!.startsWith("Z"))
		.map((parts) => ({ pid: Number(parts[0]), ppid: Number(parts[1]) }));
	const found = new Set<number>([process.pid]);
	for (let grew = true; grew; ) {
		grew = false;
		for (const row of rows) {
			if (found.has(row.ppid) && !found.has(row.pid)) {
				found.add(row.pid);
				grew = true;
			}
		}
	}
	found.delete(process.pid);
	return [...found];
}

interface Sample {
	runSignalListeners: number;
	requestSignalListeners: number;
	timers: number;
	processes: number;
}

describe("no leaks over a long session", () => {
	it("1,000 MCP calls and 1,000 plain tool calls keep listener, timer and process counts flat, without warnings", async () => {
		const warnings: Error[] = [];
		const onWarning = (warning: Error) => warnings.push(warning);
		process.on("warning", onWarning);
		try {
			server = await startMockLlmServer({ apiKey: API_KEY, idleTimeoutMs: 0, maxLifetimeMs: 0 });
			let turns = 0;
			server.setFactory(() => (turns < TURNS ? turn(turns++) : { text: "done" }));
			const { modelRuntime, model } = mockModelRuntime(server);
			const samples: Sample[] = [];
			let runSignal: AbortSignal | undefined;
			const probe = (pi: ExtensionAPI) => {
				// The server is `direct`, which does not switch codemode on by itself.
				pi.on("session_start", () => pi.setActiveTools([...pi.getActiveTools(), "codemode"]));
				pi.on("turn_start", (_event, ctx) => {
					runSignal ??= ctx.signal;
				});
			};
			h = await createMcpHarness(
				{ leak: { command: process.execPath, args: [SCRIPTED], exposure: "direct" } },
				{
					harness: { session: { modelRuntime, model } },
					extraExtensions: [createCodemodeExtension({ workerPool: new CodemodeWorkerPool() }), probe],
				},
			);
			writeFileSync(join(h.cwd, "file.txt"), "hello\n");
			await waitForTools(h, "mcp__leak__");
			const harness = h;
			const original = harness.session.agent.streamFunction;
			harness.session.agent.streamFunction = (streamModel, context, options) => {
				const requestSignal = options?.signal;
				samples.push({
					runSignalListeners: runSignal ? getEventListeners(runSignal, "abort").length : 0,
					requestSignalListeners: requestSignal ? getEventListeners(requestSignal, "abort").length : 0,
					timers: process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length,
					processes: descendants().length,
				});
				return original(streamModel, context, options);
			};

			await harness.session.prompt("go");

			const results = harness.session.messages.filter((message) => message.role === "toolResult");
			expect(results).toHaveLength(TURNS * (DIRECT_MCP_PER_TURN + READS_PER_TURN + 1));
			expect(results.filter((message) => (message as { isError?: boolean }).isError)).toEqual([]);
			const nested = harness.events.filter(
				(event) => event.type === "tool_execution_end" && event.toolName === "mcp__leak__beta",
			);
			// 500 direct + 500 nested MCP calls, 1,000 reads.
			expect(nested).toHaveLength(TURNS * SCRIPT_MCP_PER_TURN);
			expect(samples).toHaveLength(TURNS + 1);
			// After two turns everything per-call has settled in; later turns must add nothing.
			const settled = samples[2]!;
			for (const sample of samples.slice(2)) expect(sample).toEqual(settled);
			expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
		} finally {
			process.off("warning", onWarning);
		}
	}, 120_000);
});
