/**
 * The agent-level contracts of the Pi course, each followed by a negative control that disables the
 * guarded behaviour and shows the same assertion would catch it.
 */
import type { AgentEvent, AgentMessage, AgentTool } from "@tau/agent";
import { type FauxResponseStep, fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import { describe, expect, it } from "vitest";
import { createTurnBudget, gate, recordingTool, scriptedAgent, tick } from "./support/harness.js";

const notes = [
	{ id: "pi-loop", title: "Agent loop", text: "The model asks for tools; results feed the next request." },
	{ id: "pi-session", title: "Session restore", text: "The SDK rebuilds context from the current branch." },
];

const searchNotes: AgentTool<any> = {
	name: "search_notes",
	label: "Search notes",
	description: "Finds notes by text and returns their ids.",
	parameters: { type: "object", properties: { query: { type: "string", minLength: 1 } }, required: ["query"] },
	async execute(_id, { query }) {
		const matches = notes.filter((note) => `${note.title} ${note.text}`.includes(query));
		return { content: [{ type: "text", text: JSON.stringify(matches.map(({ id }) => id)) }], details: {} };
	},
};

const readNote: AgentTool<any> = {
	name: "read_note",
	label: "Read note",
	description: "Returns the full text of a note.",
	parameters: { type: "object", properties: { id: { type: "string", minLength: 1 } }, required: ["id"] },
	async execute(_id, { id }) {
		const note = notes.find((item) => item.id === id);
		if (!note) throw new Error(`No such note: ${id}`);
		return { content: [{ type: "text", text: note.text }], details: {} };
	},
};

/** search → read → answer; each factory insists that the previous tool succeeded. */
function threeTurnScript(): FauxResponseStep[] {
	const lastResultOk = (context: { messages: { role: string; isError?: boolean }[] }) => {
		const result = context.messages.findLast((message) => message.role === "toolResult");
		if (!result || result.isError) throw new Error("the previous tool did not succeed");
	};
	return [
		fauxAssistantMessage(fauxToolCall("search_notes", { query: "Session" }), { stopReason: "toolUse" }),
		(context) => {
			lastResultOk(context);
			return fauxAssistantMessage(fauxToolCall("read_note", { id: "pi-session" }), { stopReason: "toolUse" });
		},
		(context) => {
			lastResultOk(context);
			return fauxAssistantMessage("The SDK rebuilds context from the current branch. Source: pi-session.");
		},
	];
}

describe("three-turn loop", () => {
	it("brings each tool result into the next request", async () => {
		const { agent, faux, events } = scriptedAgent(threeTurnScript(), [searchNotes, readNote]);
		await agent.prompt("session restore");
		expect(faux.state.callCount).toBe(3);
		expect(events.filter((event) => event.type === "tool_execution_end")).toHaveLength(2);
		expect(agent.state.messages.filter((message) => message.role === "toolResult")).toHaveLength(2);
		expect(agent.state.isStreaming).toBe(false);
		expect(agent.state.errorMessage).toBeUndefined();
	});

	it("negative control: a failing tool breaks the chain and the assertions notice", async () => {
		const { agent, events } = scriptedAgent(threeTurnScript(), [searchNotes]);
		await agent.prompt("session restore");
		expect(agent.state.errorMessage).toBe("the previous tool did not succeed");
		expect(events.filter((event) => event.type === "tool_execution_end" && event.isError)).toHaveLength(1);
	});
});

describe("invalid arguments never execute", () => {
	const countSchema = { type: "object", properties: { count: { type: "number" } }, required: ["count"] };

	function run(args: Record<string, string>) {
		const { tool, calls } = recordingTool("count", undefined, { parameters: countSchema });
		const script = [
			fauxAssistantMessage(fauxToolCall("count", args), { stopReason: "toolUse" }),
			fauxAssistantMessage("ok"),
		];
		return { ...scriptedAgent(script, [tool]), calls };
	}

	it("produces an error result instead of calling execute", async () => {
		const { agent, calls } = run({ count: "wrong" });
		await agent.prompt("test");
		expect(calls).toHaveLength(0);
		expect(agent.state.messages.some((message) => message.role === "toolResult" && message.isError)).toBe(true);
	});

	it("negative control: valid (coercible) arguments do reach execute", async () => {
		const { agent, calls } = run({ count: "42" });
		await agent.prompt("test");
		expect(calls).toEqual([{ id: expect.any(String), args: { count: 42 } }]);
		expect(agent.state.messages.some((message) => message.role === "toolResult" && message.isError)).toBe(false);
	});
});

describe("beforeToolCall block", () => {
	function run(block: boolean) {
		const { tool, calls } = recordingTool("effect");
		const script = [
			fauxAssistantMessage(fauxToolCall("effect", {}), { stopReason: "toolUse" }),
			fauxAssistantMessage("done"),
		];
		const setup = scriptedAgent(script, [tool]);
		if (block)
			setup.agent.beforeToolCall = async () => ({ block: true, reason: "policy forbids it", terminate: true });
		return { ...setup, calls };
	}

	it("turns the call into an error result and prevents the side effect", async () => {
		const { agent, calls } = run(true);
		await agent.prompt("test");
		expect(calls).toHaveLength(0);
		expect(agent.state.messages.some((message) => message.role === "toolResult" && message.isError)).toBe(true);
	});

	it("negative control: without the hook the side effect happens", async () => {
		const { agent, calls } = run(false);
		await agent.prompt("test");
		expect(calls).toHaveLength(1);
		expect(agent.state.messages.some((message) => message.role === "toolResult" && message.isError)).toBe(false);
	});
});

describe("length-stopped tool calls", () => {
	function run(stopReason: "length" | "toolUse") {
		const { tool, calls } = recordingTool("effect");
		const script = [fauxAssistantMessage(fauxToolCall("effect", {}), { stopReason }), fauxAssistantMessage("again")];
		return { ...scriptedAgent(script, [tool]), calls };
	}

	it("are not executed", async () => {
		const { agent, calls } = run("length");
		await agent.prompt("test");
		expect(calls).toHaveLength(0);
	});

	it("negative control: the same call with stopReason toolUse executes", async () => {
		const { agent, calls } = run("toolUse");
		await agent.prompt("test");
		expect(calls).toHaveLength(1);
	});
});

describe("parallel completion order vs transcript order", () => {
	function run(slowWaitsForFast: boolean) {
		const fastEnded = gate();
		const tool: AgentTool<any> = {
			name: "ordered",
			label: "ordered",
			description: "ordered",
			parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
			async execute(_id, { key }) {
				if (key === "slow" && slowWaitsForFast) await fastEnded.promise;
				return { content: [{ type: "text", text: key }], details: {} };
			},
		};
		const script = [
			fauxAssistantMessage(
				[
					fauxToolCall("ordered", { key: "slow" }, { id: "slow" }),
					fauxToolCall("ordered", { key: "fast" }, { id: "fast" }),
				],
				{ stopReason: "toolUse" },
			),
			fauxAssistantMessage("done"),
		];
		const setup = scriptedAgent(script, [tool]);
		const ended: string[] = [];
		setup.agent.subscribe((event) => {
			if (event.type !== "tool_execution_end") return;
			ended.push(event.toolCallId);
			if (event.toolCallId === "fast") fastEnded.release();
		});
		return { ...setup, ended };
	}

	const resultIds = (messages: readonly AgentMessage[]) =>
		messages.flatMap((message) => (message.role === "toolResult" ? [message.toolCallId] : []));

	it("ends in completion order and records results in call order", async () => {
		const { agent, ended } = run(true);
		await agent.prompt("test");
		expect(ended).toEqual(["fast", "slow"]);
		expect(resultIds(agent.state.messages)).toEqual(["slow", "fast"]);
	});

	it("negative control: when completion order equals call order the end-order assertion fails", async () => {
		const { agent, ended } = run(false);
		await agent.prompt("test");
		expect(ended).not.toEqual(["fast", "slow"]);
		expect(resultIds(agent.state.messages)).toEqual(["slow", "fast"]);
	});
});

describe("mixed batch with one sequential tool", () => {
	function run(serialMode: "sequential" | "parallel") {
		let firstFinished = false;
		const calls: string[] = [];
		const serial = recordingTool(
			"serial",
			async () => {
				calls.push("first-start");
				await tick();
				firstFinished = true;
				calls.push("first-end");
				return { content: [], details: {} };
			},
			{ executionMode: serialMode },
		);
		const parallel = recordingTool("parallel", async () => {
			calls.push(firstFinished ? "second-after-first" : "second-too-early");
			return { content: [], details: {} };
		});
		const script = [
			fauxAssistantMessage([fauxToolCall("serial", {}), fauxToolCall("parallel", {})], { stopReason: "toolUse" }),
			fauxAssistantMessage("done"),
		];
		return { ...scriptedAgent(script, [serial.tool, parallel.tool]), calls };
	}

	it("keeps the other tool from starting early", async () => {
		const { agent, calls } = run("sequential");
		await agent.prompt("test");
		expect(calls).toEqual(["first-start", "first-end", "second-after-first"]);
	});

	it("negative control: without executionMode sequential the second tool starts too early", async () => {
		const { agent, calls } = run("parallel");
		await agent.prompt("test");
		expect(calls).toEqual(["first-start", "second-too-early", "first-end"]);
	});
});

describe("awaited agent_end listener", () => {
	function run(awaitGate: boolean) {
		const { agent } = scriptedAgent([fauxAssistantMessage("done")]);
		const entered = gate();
		const released = gate();
		let flushed = false;
		let streamingInside: boolean | undefined;
		agent.subscribe(async (event: AgentEvent) => {
			if (event.type !== "agent_end") return;
			streamingInside = agent.state.isStreaming;
			entered.release();
			const flush = released.promise.then(() => {
				flushed = true;
			});
			if (awaitGate) await flush;
		});
		return { agent, entered, released, isFlushed: () => flushed, streamingInside: () => streamingInside };
	}

	it("prompt() completes only after the listener finished", async () => {
		const { agent, entered, released, isFlushed, streamingInside } = run(true);
		let settled = false;
		const running = agent.prompt("test").then(() => {
			settled = true;
		});
		await entered.promise;
		await tick();
		expect(settled).toBe(false);
		expect(agent.state.isStreaming).toBe(true);
		expect(streamingInside()).toBe(true);
		expect(isFlushed()).toBe(false);
		released.release();
		await running;
		expect(isFlushed()).toBe(true);
		expect(agent.state.isStreaming).toBe(false);
	});

	it("negative control: a listener that does not return its work lets prompt() settle first", async () => {
		const { agent, released, isFlushed } = run(false);
		await agent.prompt("test");
		expect(isFlushed()).toBe(false);
		released.release();
	});
});

describe("bounded finishTurn continuation", () => {
	it("adds exactly one request", async () => {
		const { agent, faux } = scriptedAgent([fauxAssistantMessage("first"), fauxAssistantMessage("second")]);
		let turns = 0;
		agent.finishTurn = async () => (++turns === 1 ? { action: "continue" } : undefined);
		await agent.prompt("test");
		expect(faux.state.callCount).toBe(2);
		expect(agent.state.errorMessage).toBeUndefined();
	});

	it("negative control: without the continuation only one request is made", async () => {
		const { agent, faux } = scriptedAgent([fauxAssistantMessage("first"), fauxAssistantMessage("second")]);
		await agent.prompt("test");
		expect(faux.state.callCount).toBe(1);
	});
});

describe("eight-turn budget", () => {
	function run(maxTurns: number | undefined) {
		const { tool, calls } = recordingTool("safe");
		const script = Array.from({ length: 9 }, (_, index) =>
			fauxAssistantMessage(fauxToolCall("safe", {}, { id: `call-${index}` }), { stopReason: "toolUse" }),
		);
		const setup = scriptedAgent(script, [tool]);
		const budget = maxTurns === undefined ? undefined : createTurnBudget(maxTurns);
		if (budget) setup.agent.finishTurn = budget.finishTurn;
		return { ...setup, calls, budget };
	}

	it("stops after the eighth toolUse turn without a ninth request", async () => {
		const { agent, faux, calls, budget } = run(8);
		await agent.prompt("test");
		expect(faux.state.callCount).toBe(8);
		expect(calls).toHaveLength(8);
		expect(budget?.turns).toBe(8);
		expect(agent.state.messages.filter((message) => message.role === "toolResult")).toHaveLength(8);
		expect(agent.state.isStreaming).toBe(false);
		expect(agent.state.errorMessage).toBeUndefined();
	});

	it("negative control: without a budget the loop keeps requesting past eight", async () => {
		const { agent, faux, calls } = run(undefined);
		await agent.prompt("test");
		expect(faux.state.callCount).toBe(10);
		expect(calls).toHaveLength(9);
		expect(agent.state.errorMessage).toBe("No more faux responses queued");
	});
});
