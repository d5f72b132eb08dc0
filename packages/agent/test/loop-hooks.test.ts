import type { AgentMessage } from "@tau/agent";
import {
	type AssistantMessage,
	fauxAssistantMessage,
	fauxToolCall,
	type SimpleStreamOptions,
	type TranscriptContext,
} from "@tau/ai";
import { describe, expect, it } from "vitest";
import { describeEvents, recordingTool, scriptedAgent } from "./support/harness.js";

const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });

/** Records what each request carried. */
function requestRecorder() {
	const requests: { texts: string[]; options: SimpleStreamOptions | undefined; model: string }[] = [];
	const answer =
		(text: string, extra: Partial<AssistantMessage> = {}) =>
		(
			context: TranscriptContext,
			options: SimpleStreamOptions | undefined,
			_state: unknown,
			model: { id: string },
		) => {
			requests.push({
				texts: context.messages.flatMap((message) =>
					message.role === "user" && typeof message.content === "string" ? [message.content] : [],
				),
				options,
				model: model.id,
			});
			return { ...fauxAssistantMessage(text), ...extra };
		};
	return { requests, answer };
}

const toolTurn = (id = "c1") => fauxAssistantMessage(fauxToolCall("t", {}, { id }), { stopReason: "toolUse" });

describe("prepareRequest", () => {
	it("runs before every request including the first, after pending messages were emitted", async () => {
		const { tool } = recordingTool("t");
		const { agent, events } = scriptedAgent([toolTurn(), fauxAssistantMessage("done")], [tool]);
		const seen: string[][] = [];
		const lastEvent: (string | undefined)[] = [];
		agent.prepareRequest = ({ context }) => {
			seen.push(context.messages.map((message) => message.role));
			lastEvent.push(describeEvents(events).at(-1));
			return undefined;
		};
		await agent.prompt("go");
		expect(seen).toEqual([
			["system", "user"],
			["system", "user", "assistant", "toolResult"],
		]);
		expect(lastEvent).toEqual(["message_end:user", "turn_start"]);
	});

	it("replacing the context changes what the provider sees, not agent.state", async () => {
		const { requests, answer } = requestRecorder();
		const { agent } = scriptedAgent([answer("ok")]);
		agent.prepareRequest = ({ context }) => ({ context: { ...context, messages: [user("rebuilt from storage")] } });
		await agent.prompt("original");
		expect(requests.map((request) => request.texts)).toEqual([["rebuilt from storage"]]);
		expect(agent.state.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
		expect(agent.state.messages[0]).toMatchObject({ content: [{ type: "text", text: "original" }] });
	});

	it("model and thinking level apply to this and later requests; off sends no reasoning", async () => {
		const { requests, answer } = requestRecorder();
		const { tool } = recordingTool("t");
		const { agent, faux } = scriptedAgent([], [tool], {}, { models: [{ id: "small" }, { id: "large" }] });
		faux.setResponses([
			(...args) => {
				answer("")(...args);
				return toolTurn();
			},
			answer("done"),
		]);
		agent.state.thinkingLevel = "high";
		const calls: string[] = [];
		agent.prepareRequest = ({ thinkingLevel, model }) => {
			calls.push(`${model.id}/${thinkingLevel}`);
			return calls.length === 1 ? { thinkingLevel: "low", model: faux.getModel("large") } : { thinkingLevel: "off" };
		};
		await agent.prompt("go");
		expect(calls).toEqual(["small/high", "large/low"]);
		expect(requests.map((request) => request.options?.reasoning)).toEqual(["low", undefined]);
		expect(requests.map((request) => request.model)).toEqual(["large", "large"]);
		const assistants = agent.state.messages.filter((message) => message.role === "assistant");
		expect(assistants.map((message) => (message as AssistantMessage).thinkingLevel)).toEqual(["low", "off"]);
	});
});

describe("prepareNextTurn", () => {
	it("is not called before the first request; its messages are emitted and appended before the next", async () => {
		const { requests, answer } = requestRecorder();
		const { tool } = recordingTool("t");
		const { agent, events } = scriptedAgent([toolTurn(), answer("done")], [tool]);
		const callsAt: number[] = [];
		agent.prepareNextTurnWithContext = ({ message, toolResults, newMessages }) => {
			callsAt.push(newMessages.length);
			expect(message.stopReason).toBe("toolUse");
			expect(toolResults).toHaveLength(1);
			return { messages: [user("reminder")] };
		};
		await agent.prompt("go");
		expect(callsAt).toEqual([3]);
		expect(requests[0]?.texts).toEqual(["reminder"]);
		const order = describeEvents(events);
		expect(order.slice(order.indexOf("turn_end"), order.indexOf("turn_end") + 4)).toEqual([
			"turn_end",
			"turn_start",
			"message_start:user",
			"message_end:user",
		]);
	});

	it("its context replaces the working context for the next request", async () => {
		const { requests, answer } = requestRecorder();
		const { tool } = recordingTool("t");
		const { agent } = scriptedAgent([toolTurn(), answer("done")], [tool]);
		agent.prepareNextTurn = () => ({ context: { messages: [user("compacted summary")], tools: [tool] } });
		await agent.prompt("go");
		expect(requests[0]?.texts).toEqual(["compacted summary"]);
	});

	it("receives the run's signal through the signal-only form", async () => {
		const { tool } = recordingTool("t");
		const { agent } = scriptedAgent([toolTurn(), fauxAssistantMessage("done")], [tool]);
		const signals: (AbortSignal | undefined)[] = [];
		agent.prepareNextTurn = (signal) => {
			signals.push(signal);
			return undefined;
		};
		let runSignal: AbortSignal | undefined;
		agent.subscribe((_event, signal) => {
			runSignal = signal;
		});
		await agent.prompt("go");
		expect(signals).toEqual([runSignal]);
	});
});

describe("finishTurn", () => {
	it("continue on a turn with tool calls adds no extra request", async () => {
		const { tool } = recordingTool("t");
		const { agent, faux } = scriptedAgent([toolTurn(), fauxAssistantMessage("done")], [tool]);
		let calls = 0;
		agent.finishTurn = () => (++calls === 1 ? { action: "continue" } : undefined);
		await agent.prompt("go");
		expect(faux.state.callCount).toBe(2);
	});

	it("end after a tool turn stops without a request and without polling queues", async () => {
		const { tool } = recordingTool("t");
		const { agent, faux, events } = scriptedAgent([toolTurn(), fauxAssistantMessage("unused")], [tool]);
		agent.finishTurn = () => ({ action: "end" });
		agent.subscribe((event) => {
			if (event.type === "tool_execution_end") agent.steer(user("queued meanwhile"));
		});
		await agent.prompt("go");
		expect(faux.state.callCount).toBe(1);
		expect(agent.peekQueuedMessages()).toEqual([user("queued meanwhile")]);
		expect(describeEvents(events).slice(-2)).toEqual(["turn_end", "agent_end"]);
	});

	it("is called for an error response but its continue is ignored", async () => {
		const { agent, faux } = scriptedAgent([
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "overloaded" }),
			fauxAssistantMessage("unused"),
		]);
		const seen: string[] = [];
		agent.finishTurn = ({ message }) => {
			seen.push(message.stopReason);
			return { action: "continue" };
		};
		await agent.prompt("go");
		expect(seen).toEqual(["error"]);
		expect(faux.state.callCount).toBe(1);
	});

	it("continuation requests run prepareNextTurn and emit turn_start like any later turn", async () => {
		const { agent, events } = scriptedAgent([fauxAssistantMessage("first"), fauxAssistantMessage("second")]);
		let prepared = 0;
		agent.prepareNextTurn = () => {
			prepared += 1;
			return undefined;
		};
		let turns = 0;
		agent.finishTurn = () => (++turns === 1 ? { action: "continue" } : undefined);
		await agent.prompt("go");
		expect(prepared).toBe(1);
		expect(events.filter((event) => event.type === "turn_start")).toHaveLength(2);
	});
});

describe("request assembly", () => {
	it("transformContext shapes only the current request", async () => {
		const { requests, answer } = requestRecorder();
		const { tool } = recordingTool("t");
		const { agent } = scriptedAgent(
			[
				(...args) => {
					answer("")(...args);
					return toolTurn();
				},
				answer("done"),
			],
			[tool],
		);
		let request = 0;
		agent.transformContext = async (messages) => [...messages, user(`injected for request ${++request}`)];
		await agent.prompt([user("go")]);
		expect(requests.map((entry) => entry.texts)).toEqual([
			["go", "injected for request 1"],
			["go", "injected for request 2"],
		]);
		expect(agent.state.messages.some((message) => message.role === "user" && message.content !== "go")).toBe(false);
	});

	it("getApiKey runs per request with the provider id; a falsy key falls back to none configured", async () => {
		const { requests, answer } = requestRecorder();
		const { tool } = recordingTool("t");
		const { agent, model } = scriptedAgent(
			[
				(...args) => {
					answer("")(...args);
					return toolTurn();
				},
				answer("done"),
			],
			[tool],
		);
		const providers: string[] = [];
		const keys = ["key-1", ""];
		agent.getApiKey = (provider) => {
			providers.push(provider);
			return keys.shift();
		};
		await agent.prompt("go");
		expect(providers).toEqual([model.provider, model.provider]);
		expect(requests.map((request) => request.options?.apiKey)).toEqual(["key-1", undefined]);
	});

	it("each final assistant message carries the requested thinking level", async () => {
		const { agent } = scriptedAgent([fauxAssistantMessage("a"), fauxAssistantMessage("b")]);
		await agent.prompt("one");
		agent.state.thinkingLevel = "medium";
		await agent.prompt("two");
		const levels = agent.state.messages.flatMap((message) =>
			message.role === "assistant" ? [(message as AssistantMessage).thinkingLevel] : [],
		);
		expect(levels).toEqual(["off", "medium"]);
	});
});
