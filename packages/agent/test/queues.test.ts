import type { AgentMessage } from "@tau/agent";
import { fauxAssistantMessage, fauxToolCall, type TranscriptContext } from "@tau/ai";
import { describe, expect, it } from "vitest";
import { gate, recordingTool, scriptedAgent } from "./support/harness.js";

const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });

/** The user texts of each provider request, in order. */
function requestRecorder() {
	const requests: string[][] = [];
	const answer = (text: string) => (context: TranscriptContext) => {
		requests.push(
			context.messages.flatMap((message) =>
				message.role === "user" && typeof message.content === "string" ? [message.content] : [],
			),
		);
		return fauxAssistantMessage(text);
	};
	return { requests, answer };
}

describe("queue inspection", () => {
	it("peek respects the mode, does not consume, and prefers steering", () => {
		const { agent } = scriptedAgent([]);
		agent.followUp(user("f1"));
		agent.followUp(user("f2"));
		expect(agent.peekQueuedMessages()).toEqual([user("f1")]);
		agent.followUpMode = "all";
		expect(agent.peekQueuedMessages()).toEqual([user("f1"), user("f2")]);
		agent.steer(user("s1"));
		agent.steer(user("s2"));
		expect(agent.peekQueuedMessages()).toEqual([user("s1")]);
		agent.steeringMode = "all";
		expect(agent.peekQueuedMessages()).toEqual([user("s1"), user("s2")]);
		expect(agent.hasQueuedMessages()).toBe(true);
		agent.clearSteeringQueue();
		expect(agent.peekQueuedMessages()).toEqual([user("f1"), user("f2")]);
		agent.clearFollowUpQueue();
		expect(agent.hasQueuedMessages()).toBe(false);
		agent.steer(user("s"));
		agent.followUp(user("f"));
		agent.clearAllQueues();
		expect(agent.hasQueuedMessages()).toBe(false);
		expect(agent.peekQueuedMessages()).toEqual([]);
	});
});

describe("steering modes", () => {
	it("all: every queued steering message goes into the next request", async () => {
		const { requests, answer } = requestRecorder();
		const { agent, faux } = scriptedAgent([answer("one")], [], { steeringMode: "all" });
		agent.steer(user("s1"));
		agent.steer(user("s2"));
		await agent.prompt([user("p")]);
		expect(faux.state.callCount).toBe(1);
		expect(requests).toEqual([["p", "s1", "s2"]]);
	});

	it("one-at-a-time: one steering message per request", async () => {
		const { requests, answer } = requestRecorder();
		const { agent, faux } = scriptedAgent([answer("one"), answer("two")]);
		agent.steer(user("s1"));
		agent.steer(user("s2"));
		await agent.prompt([user("p")]);
		expect(faux.state.callCount).toBe(2);
		expect(requests).toEqual([
			["p", "s1"],
			["p", "s1", "s2"],
		]);
	});
});

describe("steering and follow-ups during a run (sequence B)", () => {
	it("steering waits for the whole tool batch; follow-ups wait for the stop; one agent_end", async () => {
		const { requests, answer } = requestRecorder();
		const inTool = gate();
		const proceed = gate();
		const first = recordingTool("first", async () => {
			inTool.release();
			await proceed.promise;
			return { content: [], details: {} };
		});
		const second = recordingTool("second");
		const { agent, faux, events } = scriptedAgent(
			[
				fauxAssistantMessage([fauxToolCall("first", {}, { id: "t1" }), fauxToolCall("second", {}, { id: "t2" })], {
					stopReason: "toolUse",
				}),
				answer("to s1"),
				answer("to s2"),
				answer("to f1"),
			],
			[first.tool, second.tool],
			{ toolExecution: "sequential" },
		);
		const running = agent.prompt([user("p")]);
		await inTool.promise;
		agent.steer(user("s1"));
		agent.steer(user("s2"));
		agent.followUp(user("f1"));
		proceed.release();
		await running;
		expect(second.calls).toHaveLength(1);
		expect(faux.state.callCount).toBe(4);
		expect(requests).toEqual([
			["p", "s1"],
			["p", "s1", "s2"],
			["p", "s1", "s2", "f1"],
		]);
		expect(events.filter((event) => event.type === "agent_end")).toHaveLength(1);
		// s1 lands after both tool results.
		const roles = agent.state.messages.map((message) =>
			message.role === "user" && typeof message.content === "string" ? message.content : message.role,
		);
		expect(roles.slice(0, 7)).toEqual(["system", "p", "assistant", "toolResult", "toolResult", "s1", "assistant"]);
	});

	it("steering queued while prepareNextTurn runs is picked up by the re-poll in the same turn", async () => {
		const { requests, answer } = requestRecorder();
		const { tool } = recordingTool("t");
		const { agent } = scriptedAgent(
			[fauxAssistantMessage(fauxToolCall("t", {}), { stopReason: "toolUse" }), answer("after tool")],
			[tool],
		);
		agent.prepareNextTurn = async () => {
			agent.steer(user("typed during preparation"));
			return undefined;
		};
		await agent.prompt([user("p")]);
		expect(requests).toEqual([["p", "typed during preparation"]]);
	});

	it("no second poll when the earlier poll already returned a message", async () => {
		const { requests, answer } = requestRecorder();
		const { agent, faux } = scriptedAgent([fauxAssistantMessage("first"), answer("to s1"), answer("to s2")]);
		let polls = 0;
		agent.prepareNextTurn = async () => {
			polls += 1;
			return undefined;
		};
		agent.subscribe((event) => {
			if (event.type === "turn_end" && faux.state.callCount === 1) {
				agent.steer(user("s1"));
				agent.steer(user("s2"));
			}
		});
		await agent.prompt([user("p")]);
		// One-at-a-time delivers exactly one per request even though prepareNextTurn ran in between.
		expect(requests).toEqual([
			["p", "s1"],
			["p", "s1", "s2"],
		]);
		expect(polls).toBe(2);
	});
});

describe("abort and queues", () => {
	it("abort leaves both queues untouched", async () => {
		const { agent } = scriptedAgent([fauxAssistantMessage("a long answer that gets cut off by the abort")]);
		agent.subscribe((event) => {
			if (event.type === "message_start" && event.message.role === "assistant") {
				agent.steer(user("s"));
				agent.followUp(user("f"));
				agent.abort();
			}
		});
		await agent.prompt("go");
		expect(agent.state.messages.at(-1)).toMatchObject({ stopReason: "aborted" });
		expect(agent.peekQueuedMessages()).toEqual([user("s")]);
		agent.clearSteeringQueue();
		expect(agent.peekQueuedMessages()).toEqual([user("f")]);
	});
});
