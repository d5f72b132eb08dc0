import {
	type AfterToolCallResult,
	type AgentContext,
	type AgentEvent,
	type AgentTool,
	type AgentToolResult,
	runToolCall,
} from "@tau/agent";
import { type AssistantMessage, fauxAssistantMessage, fauxToolCall, type ToolResultMessage } from "@tau/ai";
import { describe, expect, it } from "vitest";
import { gate, recordingTool, scriptedAgent, tick } from "./support/harness.js";

const numberSchema = { type: "object", properties: { count: { type: "number" } }, required: ["count"] };

/** One tool turn with the given call, then a plain answer. */
function oneCall(name: string, args: Record<string, unknown>, tools: AgentTool<any>[], id = "c1") {
	const script = [
		fauxAssistantMessage(fauxToolCall(name, args as never, { id }), { stopReason: "toolUse" }),
		fauxAssistantMessage("done"),
	];
	return scriptedAgent(script, tools);
}

function toolResults(messages: readonly { role: string }[]): ToolResultMessage[] {
	return messages.filter((message): message is ToolResultMessage => message.role === "toolResult");
}

function endEvents(events: readonly AgentEvent[]) {
	return events.filter((event) => event.type === "tool_execution_end");
}

function resultText(message: ToolResultMessage): string {
	return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("validation", () => {
	it("never executes invalid arguments and reports the validation message", async () => {
		const { tool, calls } = recordingTool("count", undefined, { parameters: numberSchema });
		const { agent } = oneCall("count", { count: "wrong" }, [tool]);
		await agent.prompt("go");
		expect(calls).toHaveLength(0);
		const [result] = toolResults(agent.state.messages);
		expect(result?.isError).toBe(true);
		expect(resultText(result!)).toContain('Validation failed for tool "count"');
		expect(resultText(result!)).toContain("count");
	});

	it("passes coerced arguments to execute", async () => {
		const { tool, calls } = recordingTool("count", undefined, { parameters: numberSchema });
		const { agent } = oneCall("count", { count: "42" }, [tool]);
		await agent.prompt("go");
		expect(calls.map((call) => call.args)).toEqual([{ count: 42 }]);
	});

	it("rejects a call carrying argumentsError without executing", async () => {
		const { tool, calls } = recordingTool("count", undefined, { parameters: numberSchema });
		const broken = { ...fauxToolCall("count", {}, { id: "c1" }), argumentsError: "Unexpected end of JSON input" };
		const script = [fauxAssistantMessage(broken, { stopReason: "toolUse" }), fauxAssistantMessage("done")];
		const { agent } = scriptedAgent(script, [tool]);
		await agent.prompt("go");
		expect(calls).toHaveLength(0);
		expect(resultText(toolResults(agent.state.messages)[0]!)).toMatch(/^Invalid arguments for tool "count"/);
	});

	it("reports an unknown tool without durationMs", async () => {
		const { agent, events } = oneCall("nope", {}, []);
		await agent.prompt("go");
		const [result] = toolResults(agent.state.messages);
		expect(resultText(result!)).toBe("Tool nope not found");
		expect(result?.isError).toBe(true);
		expect(result).not.toHaveProperty("durationMs");
		expect(endEvents(events)[0]).not.toHaveProperty("durationMs");
	});
});

describe("beforeToolCall", () => {
	it("blocks with the given reason", async () => {
		const { tool, calls } = recordingTool("effect");
		const { agent, faux } = oneCall("effect", {}, [tool]);
		agent.beforeToolCall = async () => ({ block: true, reason: "not allowed here" });
		await agent.prompt("go");
		expect(calls).toHaveLength(0);
		expect(resultText(toolResults(agent.state.messages)[0]!)).toBe("not allowed here");
		// Without terminate the model hears about the block.
		expect(faux.state.callCount).toBe(2);
	});

	it("blocks with the default text when no reason is given", async () => {
		const { tool } = recordingTool("effect");
		const { agent } = oneCall("effect", {}, [tool]);
		agent.beforeToolCall = async () => ({ block: true });
		await agent.prompt("go");
		expect(resultText(toolResults(agent.state.messages)[0]!)).toBe("Tool execution was blocked");
	});

	it("ends the run after the batch when every blocked call terminates", async () => {
		const { tool } = recordingTool("effect");
		const { agent, faux } = oneCall("effect", {}, [tool]);
		agent.beforeToolCall = async () => ({ block: true, terminate: true });
		await agent.prompt("go");
		expect(faux.state.callCount).toBe(1);
	});

	it("fails closed: a throwing hook blocks the call with its message", async () => {
		const { tool, calls } = recordingTool("effect");
		const { agent } = oneCall("effect", {}, [tool]);
		agent.beforeToolCall = async () => {
			throw new Error("permission store unavailable");
		};
		await agent.prompt("go");
		expect(calls).toHaveLength(0);
		const [result] = toolResults(agent.state.messages);
		expect(result?.isError).toBe(true);
		expect(resultText(result!)).toBe("permission store unavailable");
	});

	it("receives the raw block and the validated arguments", async () => {
		const { tool } = recordingTool("count", undefined, { parameters: numberSchema });
		const { agent } = oneCall("count", { count: "7" }, [tool]);
		const seen: unknown[] = [];
		agent.beforeToolCall = async ({ toolCall, args }) => {
			seen.push(toolCall.arguments, args);
			return undefined;
		};
		await agent.prompt("go");
		expect(seen).toEqual([{ count: "7" }, { count: 7 }]);
	});
});

describe("afterToolCall overrides field by field", () => {
	const structuredTool = () =>
		recordingTool("data", async () => ({
			content: [{ type: "text", text: "original" }],
			details: { kept: true },
			structuredContent: { value: 1 },
		}));

	async function finalized(override: AfterToolCallResult) {
		const { tool } = structuredTool();
		const { agent, events } = oneCall("data", {}, [tool]);
		agent.afterToolCall = async () => override;
		await agent.prompt("go");
		const end = endEvents(events)[0];
		return {
			result: end?.type === "tool_execution_end" ? (end.result as AgentToolResult<any>) : undefined,
			end,
			agent,
		};
	}

	it("replacing content drops structuredContent", async () => {
		const { result } = await finalized({ content: [{ type: "text", text: "replaced" }] });
		expect(result?.content).toEqual([{ type: "text", text: "replaced" }]);
		expect(result).not.toHaveProperty("structuredContent");
		expect(result?.details).toEqual({ kept: true });
	});

	it("replacing content together with structuredContent keeps the new one", async () => {
		const { result } = await finalized({
			content: [{ type: "text", text: "replaced" }],
			structuredContent: { value: 2 },
		});
		expect(result?.structuredContent).toEqual({ value: 2 });
	});

	it("replacing only details keeps content and structuredContent", async () => {
		const { result } = await finalized({ details: { replaced: true } });
		expect(result).toMatchObject({
			content: [{ type: "text", text: "original" }],
			details: { replaced: true },
			structuredContent: { value: 1 },
		});
	});

	it("isError override flips the result", async () => {
		const { end, agent } = await finalized({ isError: true });
		expect(end).toMatchObject({ isError: true });
		expect(toolResults(agent.state.messages)[0]?.isError).toBe(true);
	});

	it("a throwing hook replaces the result with an error", async () => {
		const { tool } = structuredTool();
		const { agent } = oneCall("data", {}, [tool]);
		agent.afterToolCall = async () => {
			throw new Error("audit failed");
		};
		await agent.prompt("go");
		const [result] = toolResults(agent.state.messages);
		expect(result?.isError).toBe(true);
		expect(resultText(result!)).toBe("audit failed");
		expect(result?.durationMs).toEqual(expect.any(Number));
	});
});

describe("execute outcomes", () => {
	it("a throw becomes an error result with the message", async () => {
		const { tool } = recordingTool("boom", async () => {
			throw new Error("disk full");
		});
		const { agent } = oneCall("boom", {}, [tool]);
		await agent.prompt("go");
		const [result] = toolResults(agent.state.messages);
		expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: "disk full" }] });
	});

	it("isError: true keeps details", async () => {
		const { tool } = recordingTool("soft", async () => ({ content: [], details: { code: 7 }, isError: true }));
		const { agent } = oneCall("soft", {}, [tool]);
		await agent.prompt("go");
		expect(toolResults(agent.state.messages)[0]).toMatchObject({ isError: true, details: { code: 7 } });
	});

	it("a result without content yields content: []", async () => {
		const { tool } = recordingTool("bare", async () => ({ details: {} }) as unknown as AgentToolResult<any>);
		const { agent } = oneCall("bare", {}, [tool]);
		await agent.prompt("go");
		expect(toolResults(agent.state.messages)[0]?.content).toEqual([]);
	});

	it("tool-result messages never carry structuredContent or terminate, and durationMs only when executed", async () => {
		const { tool } = recordingTool("rich", async () => ({
			content: [],
			details: {},
			structuredContent: { a: 1 },
			terminate: false,
		}));
		const { agent } = oneCall("rich", {}, [tool]);
		await agent.prompt("go");
		const [result] = toolResults(agent.state.messages);
		expect(result).not.toHaveProperty("structuredContent");
		expect(result).not.toHaveProperty("terminate");
		expect(result?.durationMs).toEqual(expect.any(Number));
	});
});

describe("prepareArguments", () => {
	it("transforms legacy arguments before validation", async () => {
		const { tool, calls } = recordingTool("count", undefined, {
			parameters: numberSchema,
			prepareArguments: (args) => ({ count: (args as { n: number }).n }),
		});
		const { agent } = oneCall("count", { n: 3 }, [tool]);
		await agent.prompt("go");
		expect(calls.map((call) => call.args)).toEqual([{ count: 3 }]);
		// The transcript keeps what the model sent.
		const assistant = agent.state.messages.find((message) => message.role === "assistant") as AssistantMessage;
		expect(assistant.content[0]).toMatchObject({ arguments: { n: 3 } });
	});

	it("returning the same object leaves the call untouched", async () => {
		const { tool, calls } = recordingTool("count", undefined, {
			parameters: numberSchema,
			prepareArguments: (args) => args,
		});
		const { agent } = oneCall("count", { count: 5 }, [tool]);
		await agent.prompt("go");
		expect(calls.map((call) => call.args)).toEqual([{ count: 5 }]);
	});

	it("a throw yields an error result", async () => {
		const { tool, calls } = recordingTool("count", undefined, {
			prepareArguments: () => {
				throw new Error("cannot read legacy shape");
			},
		});
		const { agent } = oneCall("count", {}, [tool]);
		await agent.prompt("go");
		expect(calls).toHaveLength(0);
		expect(resultText(toolResults(agent.state.messages)[0]!)).toBe("cannot read legacy shape");
	});
});

describe("onUpdate", () => {
	it("emits tool_execution_update with raw args before the call ends, and drops late updates", async () => {
		let late: ((partial: AgentToolResult<any>) => void) | undefined;
		const { tool } = recordingTool(
			"progress",
			async (_id, _args, _signal, onUpdate) => {
				onUpdate?.({ content: [{ type: "text", text: "50%" }], details: { step: 1 } });
				late = onUpdate;
				return { content: [{ type: "text", text: "100%" }], details: {} };
			},
			{ parameters: numberSchema },
		);
		const { agent, events } = oneCall("progress", { count: "1" }, [tool]);
		await agent.prompt("go");
		late?.({ content: [], details: { step: 2 } });
		const toolEvents = events.filter((event) => event.type.startsWith("tool_execution"));
		expect(toolEvents.map((event) => event.type)).toEqual([
			"tool_execution_start",
			"tool_execution_update",
			"tool_execution_end",
		]);
		expect(toolEvents[1]).toMatchObject({
			toolCallId: "c1",
			toolName: "progress",
			args: { count: "1" },
			partialResult: { details: { step: 1 } },
		});
	});

	it("awaits a slow update listener before ending the call", async () => {
		const entered = gate();
		const released = gate();
		const { tool } = recordingTool("progress", async (_id, _args, _signal, onUpdate) => {
			onUpdate?.({ content: [], details: {} });
			return { content: [], details: {} };
		});
		const { agent } = oneCall("progress", {}, [tool]);
		const order: string[] = [];
		agent.subscribe(async (event) => {
			if (event.type === "tool_execution_update") {
				entered.release();
				await released.promise;
				order.push("update handled");
			}
			if (event.type === "tool_execution_end") order.push("end");
		});
		const running = agent.prompt("go");
		await entered.promise;
		await tick();
		expect(order).toEqual([]);
		released.release();
		await running;
		expect(order).toEqual(["update handled", "end"]);
	});
});

describe("runToolCall", () => {
	const assistantMessage = fauxAssistantMessage("nested");
	const context: AgentContext = { messages: [] };

	it("runs the pipeline without events or messages", async () => {
		const { tool, calls } = recordingTool("count", undefined, { parameters: numberSchema });
		const outcome = await runToolCall(fauxToolCall("count", { count: "2" }, { id: "n1" }), {
			tools: [tool],
			assistantMessage,
			context,
		});
		expect(calls.map((call) => call.args)).toEqual([{ count: 2 }]);
		expect(outcome).toMatchObject({ isError: false, result: { content: [{ type: "text", text: "count ok" }] } });
		expect(outcome.durationMs).toEqual(expect.any(Number));
		expect(context.messages).toEqual([]);
	});

	it("a blocked nested call returns isError and the tool does not run", async () => {
		const { tool, calls } = recordingTool("write");
		const outcome = await runToolCall(fauxToolCall("write", {}), {
			tools: [tool],
			assistantMessage,
			context,
			beforeToolCall: async () => ({ block: true, reason: "read-only session" }),
		});
		expect(calls).toHaveLength(0);
		expect(outcome).toMatchObject({
			isError: true,
			result: { content: [{ type: "text", text: "read-only session" }] },
		});
		expect(outcome).not.toHaveProperty("durationMs");
	});

	it("an aborted signal returns Operation aborted before any hook runs", async () => {
		const { tool, calls } = recordingTool("write");
		const controller = new AbortController();
		controller.abort();
		let hookRan = false;
		const outcome = await runToolCall(fauxToolCall("write", {}), {
			tools: [tool],
			assistantMessage,
			context,
			signal: controller.signal,
			beforeToolCall: async () => {
				hookRan = true;
				return undefined;
			},
		});
		expect(hookRan).toBe(false);
		expect(calls).toHaveLength(0);
		expect(outcome).toMatchObject({
			isError: true,
			result: { content: [{ type: "text", text: "Operation aborted" }] },
		});
	});

	it("forwards partial results to onUpdate and ignores updates after execute settled", async () => {
		let late: ((partial: AgentToolResult<any>) => void) | undefined;
		const { tool } = recordingTool("progress", async (_id, _args, _signal, onUpdate) => {
			onUpdate?.({ content: [{ type: "text", text: "half" }], details: {} });
			late = onUpdate;
			return { content: [], details: {} };
		});
		const partials: unknown[] = [];
		await runToolCall(fauxToolCall("progress", {}), {
			tools: [tool],
			assistantMessage,
			context,
			onUpdate: (partial) => {
				partials.push(partial.content);
			},
		});
		late?.({ content: [{ type: "text", text: "too late" }], details: {} });
		expect(partials).toEqual([[{ type: "text", text: "half" }]]);
	});

	it("a signal aborted while beforeToolCall ran returns Operation aborted without executing", async () => {
		const { tool, calls } = recordingTool("write");
		const controller = new AbortController();
		const outcome = await runToolCall(fauxToolCall("write", {}), {
			tools: [tool],
			assistantMessage,
			context,
			signal: controller.signal,
			beforeToolCall: async () => {
				controller.abort();
				return undefined;
			},
		});
		expect(calls).toHaveLength(0);
		expect(outcome).toMatchObject({
			isError: true,
			result: { content: [{ type: "text", text: "Operation aborted" }] },
		});
	});

	it("an unknown tool comes back as an error outcome", async () => {
		const outcome = await runToolCall(fauxToolCall("missing", {}), { tools: [], assistantMessage, context });
		expect(outcome).toMatchObject({
			isError: true,
			result: { content: [{ type: "text", text: "Tool missing not found" }] },
		});
	});
});
