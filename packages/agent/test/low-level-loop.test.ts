import {
	type AgentContext,
	type AgentEvent,
	type AgentLoopConfig,
	type AgentMessage,
	agentLoop,
	agentLoopContinue,
	DEFAULT_AGENT_IDENTITY,
	runAgentLoop,
	runAgentLoopContinue,
	type StreamFn,
} from "@tau/agent";
import {
	type AssistantMessage,
	createAssistantMessageEventStream,
	createModels,
	type FauxResponseStep,
	fauxAssistantMessage,
	fauxProvider,
	fauxToolCall,
	type Message,
	type SimpleStreamOptions,
} from "@tau/ai";
import { describe, expect, it } from "vitest";
import { describeEvents, gate, recordingTool } from "./support/harness.js";

const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });
const keepAll = (messages: AgentMessage[]) => messages as Message[];

function setup(steps: FauxResponseStep[]) {
	const models = createModels();
	const faux = fauxProvider({ tokensPerSecond: 0 });
	models.setProvider(faux.provider);
	faux.setResponses(steps);
	const streamFn: StreamFn = models.streamSimple.bind(models);
	const config: AgentLoopConfig = { model: faux.getModel(), convertToLlm: keepAll };
	return { faux, streamFn, config };
}

/** The stream options a one-turn run with `overrides` of the config sends to the model. */
async function optionsSent(overrides: Partial<AgentLoopConfig>): Promise<SimpleStreamOptions | undefined> {
	const seen: (SimpleStreamOptions | undefined)[] = [];
	const { streamFn, config } = setup([
		(_context, options) => {
			seen.push(options);
			return fauxAssistantMessage("ok");
		},
	]);
	await runAgentLoop([user("go")], { messages: [] }, { ...config, ...overrides }, () => {}, undefined, streamFn);
	return seen[0];
}

async function drain(stream: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
	const events: AgentEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

describe("runAgentLoop", () => {
	it("resolves with the new messages and never mutates the caller's array", async () => {
		const { streamFn, config } = setup([fauxAssistantMessage("hi")]);
		const context: AgentContext = { messages: [user("earlier")] };
		const sunk: AgentEvent[] = [];
		const result = await runAgentLoop(
			[user("now")],
			context,
			config,
			(event) => {
				sunk.push(event);
			},
			undefined,
			streamFn,
		);
		expect(result.map((message) => message.role)).toEqual(["user", "assistant"]);
		expect(context.messages).toEqual([user("earlier")]);
		expect(sunk.at(-1)).toEqual({ type: "agent_end", messages: result });
	});

	it("falls back from a falsy getApiKey to config.apiKey and sends the merged identity", async () => {
		const sent = await optionsSent({ apiKey: "configured", getApiKey: () => undefined });
		expect(sent?.apiKey).toBe("configured");
		expect(sent?.identity).toEqual(DEFAULT_AGENT_IDENTITY);
	});

	it("sends no attribution when the identity turns it off", async () => {
		const sent = await optionsSent({ identity: { attribution: null } });
		expect(sent?.identity).toEqual({ attribution: null });
	});

	it("rejects when a hook violates its contract", async () => {
		const { streamFn, config } = setup([fauxAssistantMessage("unused")]);
		const broken = { ...config, transformContext: async () => Promise.reject(new Error("transform broke")) };
		await expect(runAgentLoop([user("go")], { messages: [] }, broken, () => {}, undefined, streamFn)).rejects.toThrow(
			"transform broke",
		);
	});
});

describe("continuation entry points", () => {
	it("runAgentLoopContinue rejects on empty context and on an assistant tail", async () => {
		const { streamFn, config } = setup([]);
		await expect(runAgentLoopContinue({ messages: [] }, config, () => {}, undefined, streamFn)).rejects.toThrow(
			"Cannot continue: no messages in context",
		);
		await expect(
			runAgentLoopContinue({ messages: [fauxAssistantMessage("x")] }, config, () => {}, undefined, streamFn),
		).rejects.toThrow("Cannot continue from message role: assistant");
	});

	it("agentLoopContinue throws synchronously for the same cases", () => {
		const { streamFn, config } = setup([]);
		expect(() => agentLoopContinue({ messages: [] }, config, undefined, streamFn)).toThrow(
			"Cannot continue: no messages in context",
		);
		expect(() => agentLoopContinue({ messages: [fauxAssistantMessage("x")] }, config, undefined, streamFn)).toThrow(
			"Cannot continue from message role: assistant",
		);
	});

	it("agentLoopContinue resumes from a user tail", async () => {
		const { streamFn, config } = setup([fauxAssistantMessage("answer")]);
		const stream = agentLoopContinue({ messages: [user("question")] }, config, undefined, streamFn);
		const events = await drain(stream);
		expect(describeEvents(events)[0]).toBe("agent_start");
		expect((await stream.result()).map((message) => message.role)).toEqual(["assistant"]);
	});
});

describe("agentLoop (observational)", () => {
	it("yields the same order as the awaited sink and resolves result() to the new messages", async () => {
		const script = () => [
			fauxAssistantMessage(fauxToolCall("t", {}, { id: "c1" }), { stopReason: "toolUse" }),
			fauxAssistantMessage("done"),
		];
		const tool = recordingTool("t").tool;
		const awaited = setup(script());
		const sunk: AgentEvent[] = [];
		await runAgentLoop(
			[user("go")],
			{ messages: [], tools: [tool] },
			awaited.config,
			(event) => {
				sunk.push(event);
			},
			undefined,
			awaited.streamFn,
		);

		const observed = setup(script());
		const stream = agentLoop(
			[user("go")],
			{ messages: [], tools: [tool] },
			observed.config,
			undefined,
			observed.streamFn,
		);
		const events = await drain(stream);
		expect(describeEvents(events)).toEqual(describeEvents(sunk));
		const result = await stream.result();
		expect(result).toBe((events.at(-1) as Extract<AgentEvent, { type: "agent_end" }>).messages);
	});

	it("does not wait for a slow consumer: the tool runs before the consumer reads message_end", async () => {
		const toolRan = gate();
		const tool = recordingTool("t", async () => {
			toolRan.release();
			return { content: [], details: {} };
		}).tool;
		const { streamFn, config } = setup([
			fauxAssistantMessage(fauxToolCall("t", {}, { id: "c1" }), { stopReason: "toolUse" }),
			fauxAssistantMessage("done"),
		]);
		const stream = agentLoop([user("go")], { messages: [], tools: [tool] }, config, undefined, streamFn);
		await toolRan.promise;
		const events = await drain(stream);
		expect(events.some((event) => event.type === "message_end" && event.message.role === "assistant")).toBe(true);
	});

	it("ends with the synthetic failure sequence when a hook rejects (tau improvement)", async () => {
		const { streamFn, config } = setup([fauxAssistantMessage("unused")]);
		const broken: AgentLoopConfig = {
			...config,
			convertToLlm: () => {
				throw new Error("convert broke");
			},
		};
		const stream = agentLoop([user("go")], { messages: [] }, broken, undefined, streamFn);
		const events = await drain(stream);
		expect(describeEvents(events).slice(-4)).toEqual([
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		const [failure] = await stream.result();
		expect(failure).toMatchObject({
			stopReason: "error",
			errorMessage: "convert broke",
			content: [{ type: "text", text: "" }],
		});
	});
});

describe("streams without a terminal event", () => {
	it("become a synthetic error message and the run ends normally (tau improvement)", async () => {
		const { config } = setup([]);
		const silent: StreamFn = () => {
			const stream = createAssistantMessageEventStream();
			queueMicrotask(() => stream.end());
			return stream;
		};
		const sunk: AgentEvent[] = [];
		const result = await runAgentLoop(
			[user("go")],
			{ messages: [] },
			config,
			(event) => {
				sunk.push(event);
			},
			undefined,
			silent,
		);
		expect(result.at(-1)).toMatchObject({
			role: "assistant",
			stopReason: "error",
			errorMessage: "Stream ended without a result",
			content: [],
		});
		expect(describeEvents(sunk).slice(-3)).toEqual(["message_end:assistant", "turn_end", "agent_end"]);
	});

	it("use the stream's result when it was ended with one", async () => {
		const { config } = setup([]);
		const answered = fauxAssistantMessage("from end()");
		const ending: StreamFn = () => {
			const stream = createAssistantMessageEventStream();
			queueMicrotask(() => stream.end(answered));
			return stream;
		};
		const result = await runAgentLoop([user("go")], { messages: [] }, config, () => {}, undefined, ending);
		expect(result.at(-1)).toBe(answered);
	});
});

describe("streaming updates", () => {
	it("each message_update shows the message as it was at that event, even behind a slow listener", async () => {
		const { config, faux } = setup([]);
		const model = faux.getModel();
		const usage = (output: number) => ({
			input: 5,
			output,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 5 + output,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		});
		// A provider that streams a whole burst at once and replaces its usage record midway.
		const bursty: StreamFn = () => {
			const stream = createAssistantMessageEventStream();
			const partial: AssistantMessage = {
				role: "assistant",
				content: [{ type: "text", text: "" }],
				api: model.api,
				provider: model.provider,
				model: model.id,
				usage: usage(0),
				stopReason: "pending",
				timestamp: Date.now(),
			};
			setImmediate(() => {
				stream.push({ type: "start", partial });
				for (const [index, delta] of ["a", "b", "c", "d"].entries()) {
					partial.usage = usage(index + 1);
					(partial.content[0] as { text: string }).text += delta;
					stream.push({ type: "text_delta", contentIndex: 0, delta, partial });
				}
				partial.stopReason = "stop";
				stream.push({ type: "done", reason: "stop", message: partial });
			});
			return stream;
		};
		const seen: number[] = [];
		let release = () => {};
		const held = new Promise<void>((resolve) => {
			release = resolve;
		});
		const run = runAgentLoop(
			[user("go")],
			{ messages: [] },
			config,
			(event) => {
				if (event.type !== "message_update") return undefined;
				seen.push((event.message as AssistantMessage).usage.output);
				// The first update's listener is slow: the rest of the burst arrives meanwhile.
				return seen.length === 1 ? held : undefined;
			},
			undefined,
			bursty,
		);
		await new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
		expect(seen).toEqual([1]);
		release();
		await run;
		expect(seen).toEqual([1, 2, 3, 4]);
	});
});
