import type { AgentEvent } from "@tau/agent";
import {
	type AssistantMessage,
	fauxAssistantMessage,
	fauxText,
	fauxThinking,
	fauxToolCall,
	type ImageContent,
	type SystemMessage,
} from "@tau/ai";
import { describe, expect, it } from "vitest";
import { collapseUpdates, describeEvents, gate, recordingTool, scriptedAgent, tick } from "./support/harness.js";

const ALREADY_PROMPTING =
	"Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.";

describe("prompt", () => {
	it("emits the plain-text event order and reports only the run's messages in agent_end", async () => {
		const { agent, events } = scriptedAgent([fauxAssistantMessage("hello there")], [], {
			initialState: { systemPrompt: "Be kind." },
		});
		await agent.prompt("hi");
		expect(collapseUpdates(describeEvents(events))).toEqual([
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"message_update",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		const end = events.at(-1) as Extract<AgentEvent, { type: "agent_end" }>;
		expect(end.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
		expect(agent.state.messages.map((message) => message.role)).toEqual(["system", "user", "assistant"]);
	});

	it("rejects a second prompt in the same tick, and continue/reset while running", async () => {
		const { agent } = scriptedAgent([fauxAssistantMessage("one")]);
		const first = agent.prompt("first");
		await expect(agent.prompt("second")).rejects.toThrow(ALREADY_PROMPTING);
		await expect(agent.continue()).rejects.toThrow(
			"Agent is already processing. Wait for completion before continuing.",
		);
		expect(() => agent.reset()).toThrow("Agent is already processing. Wait for completion before resetting.");
		await first;
		expect(agent.state.messages.filter((message) => message.role === "user")).toHaveLength(1);
	});

	it("builds user content [text, ...images] from a string", async () => {
		const image: ImageContent = { type: "image", data: "aGVsbG8=", mimeType: "image/png" };
		const { agent } = scriptedAgent([fauxAssistantMessage("nice picture")]);
		await agent.prompt("look", [image]);
		expect(agent.state.messages[0]).toMatchObject({ role: "user", content: [{ type: "text", text: "look" }, image] });
	});

	it("accepts a single message and an array starting with a system patch", async () => {
		const { agent, events } = scriptedAgent([fauxAssistantMessage("a"), fauxAssistantMessage("b")]);
		await agent.prompt({ role: "user", content: "as message", timestamp: 1 });
		events.length = 0;
		const patch: SystemMessage = { role: "system", content: "", sections: { mode: "Terse." }, timestamp: 2 };
		await agent.prompt([patch, { role: "user", content: "patched", timestamp: 3 }]);
		expect(describeEvents(events).slice(0, 6)).toEqual([
			"agent_start",
			"turn_start",
			"message_start:system",
			"message_end:system",
			"message_start:user",
			"message_end:user",
		]);
		expect(agent.state.systemPrompt).toBe("Terse.");
		expect(agent.state.messages[0]).toMatchObject({ role: "user", content: "as message" });
	});
});

describe("continue", () => {
	it("rejects on an empty or system-only transcript and leaves queues alone", async () => {
		const { agent } = scriptedAgent([], [], { initialState: { systemPrompt: "Base." } });
		agent.steer({ role: "user", content: "queued", timestamp: 1 });
		await expect(agent.continue()).rejects.toThrow("No messages to continue from");
		agent.state.messages = [];
		await expect(agent.continue()).rejects.toThrow("No messages to continue from");
		expect(agent.hasQueuedMessages()).toBe(true);
	});

	it("rejects an assistant tail with nothing queued", async () => {
		const { agent } = scriptedAgent([fauxAssistantMessage("done")]);
		await agent.prompt("hi");
		await expect(agent.continue()).rejects.toThrow("Cannot continue from message role: assistant");
	});

	it("assistant tail + steering: one steering message per request, the second polled after the response (sequence C)", async () => {
		const requests: string[][] = [];
		const answer = (text: string) => (context: { messages: { role: string; content: unknown }[] }) => {
			requests.push(
				context.messages.filter((message) => message.role === "user").map((message) => String(message.content)),
			);
			return fauxAssistantMessage(text);
		};
		const { agent, faux } = scriptedAgent([fauxAssistantMessage("first"), answer("to s1"), answer("to s2")]);
		await agent.prompt("start");
		agent.steer({ role: "user", content: "s1", timestamp: 1 });
		agent.steer({ role: "user", content: "s2", timestamp: 2 });
		await agent.continue();
		expect(faux.state.callCount).toBe(3);
		expect(requests[0]?.slice(1)).toEqual(["s1"]);
		expect(requests[1]?.slice(1)).toEqual(["s1", "s2"]);
		expect(agent.hasQueuedMessages()).toBe(false);
	});

	it("assistant tail + follow-ups only: runs one follow-up batch", async () => {
		const { agent, faux } = scriptedAgent([fauxAssistantMessage("first"), fauxAssistantMessage("second")]);
		await agent.prompt("start");
		agent.followUpMode = "all";
		agent.followUp({ role: "user", content: "f1", timestamp: 1 });
		agent.followUp({ role: "user", content: "f2", timestamp: 2 });
		await agent.continue();
		expect(faux.state.callCount).toBe(2);
		expect(agent.state.messages.map((message) => message.role)).toEqual([
			"user",
			"assistant",
			"user",
			"user",
			"assistant",
		]);
	});

	it("user or toolResult tail retries without adding messages", async () => {
		const { agent, faux, events } = scriptedAgent([fauxAssistantMessage("retried")]);
		agent.state.messages = [{ role: "user", content: "pending question", timestamp: 1 }];
		await agent.continue();
		expect(faux.state.callCount).toBe(1);
		const end = events.at(-1) as Extract<AgentEvent, { type: "agent_end" }>;
		expect(end.messages.map((message) => message.role)).toEqual(["assistant"]);
		expect(agent.state.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
	});

	it("toolResult tail retries from the transcript as it is", async () => {
		const seen: string[][] = [];
		const { agent, faux, events } = scriptedAgent([
			(context) => {
				seen.push(context.messages.map((message) => message.role));
				return fauxAssistantMessage("after the tool");
			},
		]);
		const call = fauxAssistantMessage(fauxToolCall("look", {}, { id: "l1" }), { stopReason: "toolUse" });
		const result = {
			role: "toolResult" as const,
			toolCallId: "l1",
			toolName: "look",
			content: [{ type: "text" as const, text: "seen" }],
			details: {},
			isError: false,
			timestamp: 2,
		};
		agent.state.messages = [{ role: "user", content: "look", timestamp: 1 }, call, result];
		await agent.continue();
		expect(faux.state.callCount).toBe(1);
		expect(seen).toEqual([["user", "assistant", "toolResult"]]);
		const end = events.at(-1) as Extract<AgentEvent, { type: "agent_end" }>;
		expect(end.messages.map((message) => message.role)).toEqual(["assistant"]);
		expect(agent.state.messages.map((message) => message.role)).toEqual([
			"user",
			"assistant",
			"toolResult",
			"assistant",
		]);
	});
});

describe("listeners", () => {
	it("see the requesting assistant message in state before beforeToolCall runs", async () => {
		const { tool } = recordingTool("look");
		const { agent } = scriptedAgent(
			[
				fauxAssistantMessage(fauxToolCall("look", {}, { id: "l1" }), { stopReason: "toolUse" }),
				fauxAssistantMessage("done"),
			],
			[tool],
		);
		let tail: unknown;
		agent.beforeToolCall = async ({ assistantMessage }) => {
			tail = agent.state.messages.at(-1);
			expect(assistantMessage).toBe(tail);
			return undefined;
		};
		await agent.prompt("go");
		expect(tail).toMatchObject({ role: "assistant", stopReason: "toolUse" });
	});

	it("run in registration order, each awaited before the next, and receive the run's signal", async () => {
		const { agent } = scriptedAgent([fauxAssistantMessage("ok")]);
		const order: string[] = [];
		const signals = new Set<AbortSignal>();
		const slow = gate();
		agent.subscribe(async (event, signal) => {
			signals.add(signal);
			if (event.type === "agent_start") {
				queueMicrotask(() => slow.release());
				await slow.promise;
			}
			order.push(`first:${event.type}`);
		});
		agent.subscribe((event) => {
			order.push(`second:${event.type}`);
		});
		await agent.prompt("hi");
		expect(order.slice(0, 4)).toEqual([
			"first:agent_start",
			"second:agent_start",
			"first:turn_start",
			"second:turn_start",
		]);
		expect(signals.size).toBe(1);
		expect([...signals][0]).toBeInstanceOf(AbortSignal);
	});

	it("stop receiving events after unsubscribe", async () => {
		const { agent } = scriptedAgent([fauxAssistantMessage("a"), fauxAssistantMessage("b")]);
		const seen: string[] = [];
		const unsubscribe = agent.subscribe((event) => {
			seen.push(event.type);
		});
		await agent.prompt("one");
		const count = seen.length;
		unsubscribe();
		await agent.prompt("two");
		expect(seen).toHaveLength(count);
	});

	it("a listener that throws on every event makes prompt() reject and still ends the run", async () => {
		const { agent } = scriptedAgent([fauxAssistantMessage("ok")]);
		agent.subscribe(() => {
			throw new Error("listener broke");
		});
		await expect(agent.prompt("hi")).rejects.toThrow("listener broke");
		expect(agent.state.isStreaming).toBe(false);
		await agent.waitForIdle();
	});
});

describe("streaming", () => {
	it("message_update carries every block type; message_start is pending; message_end is the stored object", async () => {
		const { tool } = recordingTool("look");
		const { agent, events } = scriptedAgent(
			[
				fauxAssistantMessage(
					[fauxThinking("hmm"), fauxText("let me look"), fauxToolCall("look", { q: "x" }, { id: "l1" })],
					{
						stopReason: "toolUse",
					},
				),
				fauxAssistantMessage("done"),
			],
			[tool],
		);
		await agent.prompt("go");
		const firstTurn = events.slice(
			0,
			events.findIndex((event) => event.type === "turn_end"),
		);
		const updateTypes = new Set(
			firstTurn.flatMap((event) => (event.type === "message_update" ? [event.assistantMessageEvent.type] : [])),
		);
		for (const type of ["thinking_start", "thinking_delta", "thinking_end", "text_start", "text_delta", "text_end"]) {
			expect(updateTypes).toContain(type);
		}
		for (const type of ["toolcall_start", "toolcall_delta", "toolcall_end"]) expect(updateTypes).toContain(type);
		const start = firstTurn.find((event) => event.type === "message_start" && event.message.role === "assistant");
		expect(start).toMatchObject({ message: { stopReason: "pending" } });
		const end = firstTurn.find((event) => event.type === "message_end" && event.message.role === "assistant");
		const stored = agent.state.messages.find((message) => message.role === "assistant");
		expect(end?.type === "message_end" && end.message).toBe(stored);
	});

	it("a provider error is a hard exit: finishTurn, turn_end, agent_end, no queue polling", async () => {
		const { agent, events } = scriptedAgent([]);
		const finishTurnSaw: string[] = [];
		agent.finishTurn = ({ message }) => {
			finishTurnSaw.push(message.stopReason);
			return { action: "continue" };
		};
		agent.followUp({ role: "user", content: "later", timestamp: 1 });
		await agent.prompt("hi");
		expect(finishTurnSaw).toEqual(["error"]);
		expect(describeEvents(events).slice(-3)).toEqual(["message_end:assistant", "turn_end", "agent_end"]);
		expect(agent.state.errorMessage).toBe("No more faux responses queued");
		expect(agent.hasQueuedMessages()).toBe(true);
		expect(agent.state.isStreaming).toBe(false);
	});
});

describe("run failures", () => {
	const failures: [string, (agent: ReturnType<typeof scriptedAgent>["agent"]) => void][] = [
		[
			"convertToLlm throws",
			(agent) => {
				agent.convertToLlm = () => {
					throw new Error("cannot convert");
				};
			},
		],
		[
			"prepareRequest throws",
			(agent) => {
				agent.prepareRequest = () => {
					throw new Error("cannot convert");
				};
			},
		],
		[
			"streamFn rejects",
			(agent) => {
				agent.streamFunction = async () => {
					throw new Error("cannot convert");
				};
			},
		],
	];

	for (const [name, breakIt] of failures) {
		it(`${name}: the Agent emits the synthetic failure sequence and prompt() resolves`, async () => {
			const { agent, events } = scriptedAgent([fauxAssistantMessage("unused")]);
			breakIt(agent);
			await agent.prompt("hi");
			expect(describeEvents(events).slice(-4)).toEqual([
				"message_start:assistant",
				"message_end:assistant",
				"turn_end",
				"agent_end",
			]);
			const failure = agent.state.messages.at(-1) as AssistantMessage;
			expect(failure).toMatchObject({
				role: "assistant",
				content: [{ type: "text", text: "" }],
				stopReason: "error",
				errorMessage: "cannot convert",
			});
			const end = events.at(-1) as Extract<AgentEvent, { type: "agent_end" }>;
			expect(end.messages).toEqual([failure]);
			expect(agent.state.errorMessage).toBe("cannot convert");
			expect(agent.state.isStreaming).toBe(false);
		});
	}

	it("reports aborted when the run was aborted before the failure", async () => {
		const { agent } = scriptedAgent([fauxAssistantMessage("unused")]);
		agent.prepareRequest = async () => {
			agent.abort();
			throw new Error("gave up");
		};
		await agent.prompt("hi");
		expect(agent.state.messages.at(-1)).toMatchObject({ stopReason: "aborted", errorMessage: "gave up" });
	});

	it("waitForIdle is pending until the run settles", async () => {
		const { agent } = scriptedAgent([fauxAssistantMessage("ok")]);
		const release = gate();
		agent.subscribe(async (event) => {
			if (event.type === "agent_end") await release.promise;
		});
		const running = agent.prompt("hi");
		let idle = false;
		const idlePromise = agent.waitForIdle().then(() => {
			idle = true;
		});
		await tick();
		expect(idle).toBe(false);
		release.release();
		await Promise.all([running, idlePromise]);
		expect(idle).toBe(true);
	});
});
