import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MockLlmServer, ScriptedReply } from "@tau/testkit";
import { describe, expect, it } from "vitest";
import { mockServer, type Sandbox, sandbox } from "../e2e/harness.js";
import {
	type JsonRecord,
	type MockApi,
	oracleMissing,
	PROGRAMS,
	type ProgramName,
	RpcSession,
	runProgram,
	writeThinkingMockModels,
} from "./pi-oracle.js";

/**
 * Pi's json and rpc streams are a contract for their consumers (docs/rpc.md): for the same scripted
 * run, tau must write Pi's events in Pi's order with the same key fields. Each scenario runs tau and
 * pi 1.6 against their own mock server scripted identically and compares what they printed.
 */

/** One line reduced to what a consumer branches on (ids, text and numbers that are not timing-dependent). */
function keyOf(line: JsonRecord): string {
	const event = line as { [key: string]: any };
	const parts: unknown[] = [event.type];
	switch (event.type) {
		case "response":
			parts.push(event.command, event.success, event.error);
			break;
		case "message_update": {
			const update = event.assistantMessageEvent;
			parts.push(update.type, update.contentIndex, update.delta, update.id, update.toolName);
			break;
		}
		case "message_start":
		case "message_end":
			parts.push(event.message.role, event.message.stopReason, event.message.customType);
			break;
		case "turn_end":
			parts.push(event.message?.stopReason, event.toolResults?.length);
			break;
		case "tool_execution_start":
			parts.push(event.toolCallId, event.toolName, JSON.stringify(event.args));
			break;
		case "tool_execution_end":
			parts.push(event.toolCallId, event.toolName, event.isError);
			break;
		case "agent_end":
			parts.push(event.willRetry, event.messages.length);
			break;
		case "agent_settled":
			parts.push(event.aborted);
			break;
		case "entry_appended":
			parts.push(event.entry.type, event.entry.customType);
			break;
		case "queue_update":
			parts.push(JSON.stringify([event.steering, event.followUp]));
			break;
		case "auto_retry_start":
			parts.push(event.attempt, event.maxAttempts, event.delayMs);
			break;
		case "auto_retry_end":
			parts.push(event.success, event.attempt, event.finalError);
			break;
		case "compaction_start":
			parts.push(event.reason);
			break;
		case "compaction_end":
			parts.push(event.reason, event.aborted, event.willRetry, event.errorMessage, event.result?.summary);
			break;
	}
	while (parts.length > 1 && parts.at(-1) === undefined) parts.pop();
	return parts.map((part) => (part === undefined ? "" : String(part))).join(" | ");
}

function jsonLines(stdout: string): JsonRecord[] {
	return stdout
		.split("\n")
		.filter((line) => line.trim() !== "")
		.map((line) => JSON.parse(line) as JsonRecord);
}

interface Setup {
	box: Sandbox;
	server: MockLlmServer;
}

async function setUp(api: MockApi = "anthropic-messages", settings: JsonRecord = {}): Promise<Setup> {
	const box = sandbox();
	const server = await mockServer();
	writeThinkingMockModels(box, server, settings, api);
	writeFileSync(join(box.project, "notes.txt"), "interop\n");
	return { box, server };
}

/** Runs `--mode json` in both programs with the same replies; returns each program's key lines. */
async function jsonStreams(
	replies: readonly ScriptedReply[],
	options: { api?: MockApi; args?: string[]; extension?: string } = {},
): Promise<{ [program in ProgramName]: string[] }> {
	const runs = await Promise.all(
		PROGRAMS.map(async (program) => {
			const { box, server } = await setUp(options.api);
			server.enqueue(...replies);
			const args = ["--no-session", "--mode", "json", ...(options.args ?? [])];
			if (options.extension) {
				writeFileSync(join(box.home, "probe.js"), options.extension);
				args.push("-e", join(box.home, "probe.js"));
			}
			const run = await runProgram(program, box, [...args, "go"]);
			expect(run.code, run.stderr).toBe(0);
			// The session header's ids and timestamps differ by nature; its presence and place do not.
			return jsonLines(run.stdout).map((line) => (line.type === "session" ? "session" : keyOf(line)));
		}),
	);
	return { tau: runs[0]!, pi: runs[1]! };
}

/** Drives `--mode rpc` in both programs with the same script; returns each program's key lines. */
async function rpcStreams(
	script: (rpc: RpcSession, server: MockLlmServer) => Promise<void>,
	options: { api?: MockApi; settings?: JsonRecord } = {},
): Promise<{ [program in ProgramName]: string[] }> {
	const runs = await Promise.all(
		PROGRAMS.map(async (program) => {
			const { box, server } = await setUp(options.api, options.settings);
			const rpc = RpcSession.start(program, box, ["--no-session"]);
			try {
				await script(rpc, server);
			} finally {
				expect(await rpc.close(), rpc.stderr).toBe(0);
			}
			return rpc.lines.map(keyOf);
		}),
	);
	return { tau: runs[0]!, pi: runs[1]! };
}

const settled = (line: JsonRecord) => line.type === "agent_settled";

/** SSE events of each protocol before the stall: the thinking block and a few text deltas. */
const EVENTS_BEFORE_STALL: { [api in MockApi]: number } = {
	"anthropic-messages": 11,
	"openai-completions": 7,
	"openai-responses": 15,
};

/** Thinks, streams some text, then hangs until the client aborts. */
function stalledReply(api: MockApi): ScriptedReply {
	return {
		thinking: "thinking it over",
		text: "one two three four five six",
		fault: { kind: "stall", afterEvents: EVENTS_BEFORE_STALL[api] },
	};
}

async function abortWhileStreaming(rpc: RpcSession, server: MockLlmServer, api: MockApi): Promise<void> {
	server.enqueue(stalledReply(api));
	await rpc.send({ type: "prompt", message: "go" });
	await rpc.waitFor((line) => (line.assistantMessageEvent as { type?: string } | undefined)?.type === "text_delta");
	await rpc.send({ type: "abort" });
	await rpc.waitFor(settled);
}

/** A first reply held back until the test has queued its message, then a second reply. */
function heldReplies(server: MockLlmServer): () => void {
	let release: () => void = () => {};
	const gate = new Promise<void>((resolve) => {
		release = resolve;
	});
	server.enqueue(
		async () => {
			await gate;
			return { text: "first answer" };
		},
		{ text: "second answer" },
	);
	return release;
}

const PARALLEL_CALLS: ScriptedReply = {
	thinking: "two reads",
	text: "Reading both.",
	toolCalls: [
		{ id: "call_1", name: "read", arguments: { path: "notes.txt" } },
		{ id: "call_2", name: "ls", arguments: { path: "." } },
	],
};

/** Appends entries and sends one message, so extension-made events interleave with the run's. */
const EXTENSION = `
let sent = false;
export default function (pi) {
	pi.on("session_start", () => pi.appendEntry("probe-start", { ok: true }));
	pi.registerTool({
		name: "probe",
		label: "Probe",
		description: "probe",
		parameters: { type: "object", properties: { text: { type: "string" } } },
		async execute(toolCallId) {
			pi.appendEntry("probe-ran", { toolCallId });
			return { content: [{ type: "text", text: "probed" }], details: {} };
		},
	});
	pi.on("turn_end", () => {
		if (sent) return;
		sent = true;
		pi.sendMessage({ customType: "probe-note", content: "note", display: true });
	});
}
`;

describe.skipIf(oracleMissing !== undefined)(
	`--mode json / --mode rpc write pi 1.6's events in pi's order (${oracleMissing ?? "pi reference present"})`,
	// Two CLIs per test, each a whole process start: generous for a loaded machine, never a timing assertion.
	{ timeout: 180_000 },
	() => {
		describe("json mode, Anthropic Messages", () => {
			it("a text answer", async () => {
				const { tau, pi } = await jsonStreams([{ text: "hello there" }]);
				expect(tau).toEqual(pi);
				expect(tau).toContain("message_update | text_delta | 0 |  there");
			});

			it("thinking, then text", async () => {
				const { tau, pi } = await jsonStreams([{ thinking: "let me think", text: "ok" }], {
					args: ["--thinking", "high"],
				});
				expect(tau).toEqual(pi);
				expect(tau.some((line) => line.startsWith("message_update | thinking_end"))).toBe(true);
			});

			it("a tool call: the tool-intent record of tau's crash recovery is not in the stream", async () => {
				const replies: ScriptedReply[] = [
					{ toolCalls: [{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }] },
					{ text: "done" },
				];
				const { tau, pi } = await jsonStreams(replies);
				expect(tau).toEqual(pi);
				expect(tau.filter((line) => line.startsWith("entry_appended"))).toEqual([]);
			});

			it("parallel tool calls", async () => {
				const { tau, pi } = await jsonStreams([PARALLEL_CALLS, { text: "done" }], { args: ["--thinking", "low"] });
				expect(tau).toEqual(pi);
				expect(tau.filter((line) => line.startsWith("tool_execution_end"))).toHaveLength(2);
			});

			it("a provider error that is not retried", async () => {
				const { tau, pi } = await jsonStreams([{ fault: { kind: "http", status: 400, message: "bad request" } }]);
				expect(tau).toEqual(pi);
			});

			it("a retried error: auto_retry_end follows the successful message_end", async () => {
				const { tau, pi } = await jsonStreams([
					{ fault: { kind: "http", status: 500, message: "boom" } },
					{ text: "recovered" },
				]);
				expect(tau).toEqual(pi);
				const end = tau.findIndex((line) => line.startsWith("auto_retry_end"));
				expect(tau[end - 1]).toBe("message_end | assistant | stop");
			});

			it("extension events: appendEntry, a custom tool and sendMessage", async () => {
				const replies: ScriptedReply[] = [
					{ toolCalls: [{ id: "call_1", name: "probe", arguments: { text: "x" } }] },
					{ text: "done" },
				];
				const { tau, pi } = await jsonStreams(replies, { extension: EXTENSION });
				expect(tau).toEqual(pi);
				expect(tau).toContain("entry_appended | custom | probe-ran");
			});
		});

		describe("json mode, OpenAI protocols", () => {
			for (const api of ["openai-completions", "openai-responses"] as const) {
				it(`${api}: thinking, text and parallel tool calls`, async () => {
					const { tau, pi } = await jsonStreams([PARALLEL_CALLS, { text: "done" }], {
						api,
						args: ["--thinking", "low"],
					});
					expect(tau).toEqual(pi);
				});
			}
		});

		describe("rpc mode", () => {
			for (const api of ["anthropic-messages", "openai-completions", "openai-responses"] as const) {
				it(`abort while streaming (${api}): open blocks end as in pi`, async () => {
					const { tau, pi } = await rpcStreams((rpc, server) => abortWhileStreaming(rpc, server, api), { api });
					expect(tau).toEqual(pi);
					expect(tau).toContain("message_end | assistant | aborted");
				});
			}

			it("steering while streaming", async () => {
				const { tau, pi } = await rpcStreams(async (rpc, server) => {
					const release = heldReplies(server);
					await rpc.send({ type: "prompt", message: "go" });
					await server.waitForRequest(0);
					await rpc.send({ type: "steer", message: "also this" });
					release();
					await rpc.waitFor(settled);
				});
				expect(tau).toEqual(pi);
				expect(tau).toContain(`queue_update | ${JSON.stringify([["also this"], []])}`);
			});

			it("a follow-up while streaming", async () => {
				const { tau, pi } = await rpcStreams(async (rpc, server) => {
					const release = heldReplies(server);
					await rpc.send({ type: "prompt", message: "go" });
					await server.waitForRequest(0);
					await rpc.send({ type: "follow_up", message: "and then" });
					release();
					await rpc.waitFor(settled);
				});
				expect(tau).toEqual(pi);
				expect(tau).toContain(`queue_update | ${JSON.stringify([[], ["and then"]])}`);
			});

			/** Three long turns, then `compact`, whose summary requests `summary` answers. */
			const compactAfterThreeTurns = (summary: ScriptedReply) => async (rpc: RpcSession, server: MockLlmServer) => {
				for (const turn of [1, 2, 3]) {
					server.enqueue({ text: { tokens: 300 } });
					const before = rpc.lines.length;
					await rpc.send({ type: "prompt", message: `question ${turn} ${"words ".repeat(300)}` });
					await rpc.waitFor(settled, before);
				}
				server.enqueue(summary, summary);
				await rpc.send({ type: "compact" });
			};
			const smallKeep = { settings: { compaction: { keepRecentTokens: 200 } } };

			it("manual compaction", async () => {
				const { tau, pi } = await rpcStreams(compactAfterThreeTurns({ text: "## Goal\nthe summary" }), smallKeep);
				expect(tau).toEqual(pi);
				expect(tau).toContain("response | compact | true");
			});

			it("manual compaction whose summarizing model also calls a tool", async () => {
				const reply: ScriptedReply = {
					text: "## Goal\nthe summary",
					toolCalls: [{ id: "call_9", name: "read", arguments: { path: "notes.txt" } }],
				};
				const { tau, pi } = await rpcStreams(compactAfterThreeTurns(reply), smallKeep);
				expect(tau).toEqual(pi);
				// pi 1.6 refuses such a summary too: it is not persisted.
				expect(tau).toContain("response | compact | false | Summarization attempted to call a tool");
			});

			it("session name and thinking level changes announce no entries", async () => {
				const { tau, pi } = await rpcStreams(async (rpc) => {
					await rpc.send({ type: "set_session_name", name: "named" });
					await rpc.send({ type: "set_thinking_level", level: "high" });
					await rpc.send({ type: "cycle_thinking_level" });
				});
				expect(tau).toEqual(pi);
				expect(tau.filter((line) => line.startsWith("entry_appended"))).toEqual([]);
			});
		});
	},
);
