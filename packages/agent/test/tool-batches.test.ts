import { getEventListeners } from "node:events";
import type { AgentEvent, AgentTool } from "@tau/agent";
import { fauxAssistantMessage, fauxToolCall, type ToolResultMessage } from "@tau/ai";
import { describe, expect, it } from "vitest";
import { collapseUpdates, describeEvents, gate, recordingTool, scriptedAgent } from "./support/harness.js";

function toolResults(messages: readonly { role: string }[]): ToolResultMessage[] {
	return messages.filter((message): message is ToolResultMessage => message.role === "toolResult");
}

function texts(messages: readonly ToolResultMessage[]): string[] {
	return messages.map((message) => message.content.map((block) => (block.type === "text" ? block.text : "")).join(""));
}

const twoCalls = (first: string, second: string) =>
	fauxAssistantMessage([fauxToolCall(first, {}, { id: "c1" }), fauxToolCall(second, {}, { id: "c2" })], {
		stopReason: "toolUse",
	});

describe("parallel batches", () => {
	it("runs every preflight (tool_execution_start) before any execution starts", async () => {
		const log: string[] = [];
		const track = (name: string) =>
			recordingTool(name, async () => {
				log.push(`execute ${name}`);
				return { content: [], details: {} };
			}).tool;
		const { agent } = scriptedAgent([twoCalls("a", "b"), fauxAssistantMessage("done")], [track("a"), track("b")]);
		agent.subscribe((event) => {
			if (event.type === "tool_execution_start") log.push(`start ${event.toolName}`);
		});
		await agent.prompt("go");
		expect(log).toEqual(["start a", "start b", "execute a", "execute b"]);
	});

	it("follows worked sequence A: an unknown tool ends during preflight, results stay in source order", async () => {
		const echo = recordingTool("echo", async (_id, _args, _signal, onUpdate) => {
			onUpdate?.({ content: [{ type: "text", text: "working" }], details: {} });
			return { content: [{ type: "text", text: "echoed" }], details: {} };
		});
		const { agent, events } = scriptedAgent([twoCalls("echo", "nope"), fauxAssistantMessage("done")], [echo.tool]);
		await agent.prompt("go");
		expect(agent.state.messages.map((message) => message.role)).toEqual([
			"system",
			"user",
			"assistant",
			"toolResult",
			"toolResult",
			"assistant",
		]);
		expect(collapseUpdates(describeEvents(events))).toEqual([
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"message_update",
			"message_end:assistant",
			"tool_execution_start:c1",
			"tool_execution_start:c2",
			"tool_execution_end:c2",
			"tool_execution_update:c1",
			"tool_execution_end:c1",
			"message_start:toolResult",
			"message_end:toolResult",
			"message_start:toolResult",
			"message_end:toolResult",
			"turn_end",
			"turn_start",
			"message_start:assistant",
			"message_update",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		const ends = events.filter((event) => event.type === "tool_execution_end");
		expect(ends[0]).toMatchObject({
			toolCallId: "c2",
			isError: true,
			result: { content: [{ text: "Tool nope not found" }] },
		});
		expect(ends[0]).not.toHaveProperty("durationMs");
		expect(ends[1]).toMatchObject({ toolCallId: "c1", isError: false, durationMs: expect.any(Number) });
		expect(toolResults(agent.state.messages).map((message) => message.toolCallId)).toEqual(["c1", "c2"]);
		const end = events.at(-1) as Extract<AgentEvent, { type: "agent_end" }>;
		expect(end.messages.map((message) => message.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"toolResult",
			"assistant",
		]);
	});
});

describe("sequential batches", () => {
	function overlapProbe() {
		let running = 0;
		let maxRunning = 0;
		const probe = (name: string, extra: Partial<AgentTool<any>> = {}) =>
			recordingTool(
				name,
				async () => {
					running += 1;
					maxRunning = Math.max(maxRunning, running);
					await new Promise((resolve) => setImmediate(resolve));
					running -= 1;
					return { content: [], details: {} };
				},
				extra,
			).tool;
		return { probe, maxRunning: () => maxRunning };
	}

	it("one executionMode: sequential tool serializes the batch, each call fully ending before the next", async () => {
		const { probe, maxRunning } = overlapProbe();
		const { agent, events } = scriptedAgent(
			[twoCalls("free", "serial"), fauxAssistantMessage("done")],
			[probe("free"), probe("serial", { executionMode: "sequential" })],
		);
		await agent.prompt("go");
		expect(maxRunning()).toBe(1);
		const toolPhase = describeEvents(events).filter(
			(entry) => entry.startsWith("tool_") || entry.endsWith("toolResult"),
		);
		expect(toolPhase).toEqual([
			"tool_execution_start:c1",
			"tool_execution_end:c1",
			"message_start:toolResult",
			"message_end:toolResult",
			"tool_execution_start:c2",
			"tool_execution_end:c2",
			"message_start:toolResult",
			"message_end:toolResult",
		]);
	});

	it("toolExecution: sequential on the agent does the same", async () => {
		const { probe, maxRunning } = overlapProbe();
		const { agent } = scriptedAgent([twoCalls("a", "b"), fauxAssistantMessage("done")], [probe("a"), probe("b")], {
			toolExecution: "sequential",
		});
		await agent.prompt("go");
		expect(maxRunning()).toBe(1);
	});

	it("negative control: without either the calls overlap", async () => {
		const { probe, maxRunning } = overlapProbe();
		const { agent } = scriptedAgent([twoCalls("a", "b"), fauxAssistantMessage("done")], [probe("a"), probe("b")]);
		await agent.prompt("go");
		expect(maxRunning()).toBe(2);
	});
});

describe("terminate rule", () => {
	const terminating = (name: string, terminate: boolean) =>
		recordingTool(name, async () => ({ content: [], details: {}, terminate })).tool;

	it("skips the follow-up request when every result terminates", async () => {
		const { agent, faux } = scriptedAgent(
			[twoCalls("a", "b"), fauxAssistantMessage("unused")],
			[terminating("a", true), terminating("b", true)],
		);
		await agent.prompt("go");
		expect(faux.state.callCount).toBe(1);
	});

	it("continues when only some results terminate", async () => {
		const { agent, faux } = scriptedAgent(
			[twoCalls("a", "b"), fauxAssistantMessage("done")],
			[terminating("a", true), terminating("b", false)],
		);
		await agent.prompt("go");
		expect(faux.state.callCount).toBe(2);
	});

	it("does not suppress a queued follow-up", async () => {
		const { agent, faux } = scriptedAgent(
			[twoCalls("a", "b"), fauxAssistantMessage("answer to follow-up")],
			[terminating("a", true), terminating("b", true)],
		);
		agent.followUp({ role: "user", content: "one more thing", timestamp: 1 });
		await agent.prompt("go");
		expect(faux.state.callCount).toBe(2);
		expect(agent.hasQueuedMessages()).toBe(false);
	});
});

describe("length-stopped responses", () => {
	it("execute nothing, report the exact truncation text and request again", async () => {
		const { tool, calls } = recordingTool("write");
		const { agent, faux, events } = scriptedAgent(
			[
				fauxAssistantMessage([fauxToolCall("write", {}, { id: "c1" })], { stopReason: "length" }),
				fauxAssistantMessage("retrying properly"),
			],
			[tool],
		);
		await agent.prompt("go");
		expect(calls).toHaveLength(0);
		expect(faux.state.callCount).toBe(2);
		const [result] = toolResults(agent.state.messages);
		expect(result?.isError).toBe(true);
		expect(result).not.toHaveProperty("durationMs");
		expect(texts([result!])).toEqual([
			'Tool call "write" was not executed: the response hit the output token limit, so its arguments may be truncated. Re-issue the tool call with complete arguments.',
		]);
		expect(describeEvents(events).filter((entry) => entry.startsWith("tool_"))).toEqual([
			"tool_execution_start:c1",
			"tool_execution_end:c1",
		]);
	});
});

describe("abort during tools", () => {
	it("parallel: running tools see the signal, every call gets a result, the next request ends aborted (sequence D)", async () => {
		const started = { a: gate(), b: gate() };
		const waitForAbort = (name: "a" | "b") =>
			recordingTool(name, (_id, _args, signal) => {
				started[name].release();
				return new Promise((_resolve, reject) => {
					signal?.addEventListener("abort", () => reject(new Error(`${name} saw the abort`)), { once: true });
				});
			}).tool;
		const { agent, faux, events } = scriptedAgent(
			[twoCalls("a", "b"), fauxAssistantMessage("never sent")],
			[waitForAbort("a"), waitForAbort("b")],
		);
		const running = agent.prompt("go");
		await Promise.all([started.a.promise, started.b.promise]);
		agent.abort();
		await running;
		expect(texts(toolResults(agent.state.messages))).toEqual(["a saw the abort", "b saw the abort"]);
		const tail = collapseUpdates(describeEvents(events)).slice(-12);
		expect(tail).toEqual([
			"tool_execution_end:c1",
			"tool_execution_end:c2",
			"message_start:toolResult",
			"message_end:toolResult",
			"message_start:toolResult",
			"message_end:toolResult",
			"turn_end",
			"turn_start",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		expect(events.filter((event) => event.type === "agent_end")).toHaveLength(1);
		const last = agent.state.messages.at(-1);
		expect(last).toMatchObject({ role: "assistant", stopReason: "aborted" });
		expect(agent.state.errorMessage).toBeDefined();
		// The faux provider was asked once more but answered from the aborted signal without a response.
		expect(faux.getPendingResponseCount()).toBe(1);
	});

	it("parallel: a prepared call that has not started gets Operation aborted", async () => {
		const first = recordingTool("first");
		const second = recordingTool("second");
		const { agent } = scriptedAgent([twoCalls("first", "second")], [first.tool, second.tool]);
		agent.beforeToolCall = async ({ toolCall }) => {
			if (toolCall.id === "c2") agent.abort();
			return undefined;
		};
		await agent.prompt("go");
		expect(first.calls).toHaveLength(0);
		expect(second.calls).toHaveLength(0);
		expect(texts(toolResults(agent.state.messages))).toEqual(["Operation aborted", "Operation aborted"]);
	});

	it("sequential: later calls get Operation aborted without running", async () => {
		const later = recordingTool("later");
		const { agent } = scriptedAgent([twoCalls("stopper", "later")], [], { toolExecution: "sequential" });
		const stopper = recordingTool("stopper", async () => {
			agent.abort();
			return { content: [{ type: "text", text: "stopped" }], details: {} };
		});
		agent.state.tools = [stopper.tool, later.tool];
		await agent.prompt("go");
		expect(later.calls).toHaveLength(0);
		expect(texts(toolResults(agent.state.messages))).toEqual(["stopped", "Operation aborted"]);
	});
});

describe("signals of parallel calls", () => {
	it("each call gets its own signal, the run's signal holds one listener for all of them, and abort reaches every call", async () => {
		const running = gate();
		const signals: AbortSignal[] = [];
		let runSignal: AbortSignal | undefined;
		const tools = Array.from(
			{ length: 12 },
			(_, i) =>
				recordingTool(`t${i}`, async (_id, _args, signal) => {
					signals.push(signal!);
					// Like a tool waiting on a request: one abort listener per call, on the signal it was given.
					await new Promise<void>((resolve) => {
						signal!.addEventListener("abort", () => resolve(), { once: true });
						if (signals.length === 12) running.release();
					});
					return { content: [], details: {} };
				}).tool,
		);
		const calls = fauxAssistantMessage(
			tools.map((tool, i) => fauxToolCall(tool.name, {}, { id: `c${i}` })),
			{ stopReason: "toolUse" },
		);
		const { agent } = scriptedAgent([calls, fauxAssistantMessage("done")], tools);
		const original = agent.streamFunction;
		agent.streamFunction = (model, context, options) => {
			runSignal ??= options?.signal;
			return original(model, context, options);
		};
		const warnings: Error[] = [];
		const onWarning = (warning: Error) => warnings.push(warning);
		process.on("warning", onWarning);
		try {
			const run = agent.prompt("go");
			await running.promise;
			expect(new Set(signals).size).toBe(12);
			expect(signals).not.toContain(runSignal);
			// Twelve calls in flight, yet one listener on the run's signal (Node warns above ten).
			expect(getEventListeners(runSignal!, "abort")).toHaveLength(1);
			agent.abort();
			await run;
			expect(signals.every((signal) => signal.aborted)).toBe(true);
			expect(getEventListeners(runSignal!, "abort")).toHaveLength(0);
			expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
		} finally {
			process.off("warning", onWarning);
		}
	});
});
