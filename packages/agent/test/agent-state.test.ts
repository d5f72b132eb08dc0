import { Agent, type StreamFn, setDefaultStreamFn } from "@tau/agent";
import { fauxAssistantMessage, fauxToolCall, type SystemMessage, toToolDeclaration } from "@tau/ai";
import { afterEach, describe, expect, it } from "vitest";
import { gate, recordingTool, scriptedAgent } from "./support/harness.js";

declare module "@tau/agent" {
	interface CustomAgentMessages {
		notification: { role: "notification"; text: string; timestamp: number };
	}
}

describe("initial state", () => {
	it("creates a leading system message from systemPrompt and tool declarations", () => {
		const { tool } = recordingTool("search");
		const { agent } = scriptedAgent([], [tool], { initialState: { systemPrompt: "Be brief." } });
		expect(agent.state.messages).toEqual([
			{ role: "system", content: "Be brief.", toolsAdded: [toToolDeclaration(tool)], timestamp: 0 },
		]);
		const declared = (agent.state.messages[0] as SystemMessage).toolsAdded?.[0];
		expect(declared).not.toHaveProperty("execute");
		expect(declared).not.toHaveProperty("label");
		expect(agent.state.systemPrompt).toBe("Be brief.");
	});

	it("does not add a second system message when messages already start with one", () => {
		const existing: SystemMessage = { role: "system", content: "Existing.", timestamp: 5 };
		const { agent } = scriptedAgent([], [], { initialState: { systemPrompt: "Ignored.", messages: [existing] } });
		expect(agent.state.messages).toEqual([existing]);
		expect(agent.state.systemPrompt).toBe("Existing.");
	});

	it("has no system message for an empty prompt without tools", () => {
		const { agent } = scriptedAgent([], [], { initialState: { systemPrompt: "" } });
		expect(agent.state.messages).toEqual([]);
		expect(agent.state.systemPrompt).toBe("");
	});

	it("replays later section patches into systemPrompt (read-only view of the transcript)", () => {
		const { agent } = scriptedAgent([], [], { initialState: { systemPrompt: "Base." } });
		agent.state.messages.push({ role: "system", content: "", sections: { style: "Use lists." }, timestamp: 1 });
		agent.state.messages.push({ role: "system", content: "", sections: { style: "Use prose." }, timestamp: 2 });
		expect(agent.state.systemPrompt).toBe("Base.\n\nUse prose.");
		expect(() => {
			(agent.state as { systemPrompt: string }).systemPrompt = "overwrite";
		}).toThrow();
	});

	it("uses a placeholder model and thinking off by default", () => {
		const agent = new Agent({ streamFn: (() => {}) as unknown as StreamFn });
		expect(agent.state.model).toEqual({
			id: "unknown",
			name: "unknown",
			api: "unknown",
			provider: "unknown",
			baseUrl: "",
			reasoning: false,
			input: [],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 0,
			maxTokens: 0,
		});
		expect(agent.state.thinkingLevel).toBe("off");
		expect(agent.state.isStreaming).toBe(false);
		expect(agent.state.pendingToolCalls.size).toBe(0);
	});
});

describe("array accessors", () => {
	it("copy on assignment and expose the live array on read", () => {
		const { agent } = scriptedAgent([]);
		const source = [{ role: "user" as const, content: "a", timestamp: 1 }];
		agent.state.messages = source;
		source.push({ role: "user", content: "b", timestamp: 2 });
		expect(agent.state.messages).toHaveLength(1);
		agent.state.messages.push({ role: "user", content: "c", timestamp: 3 });
		expect(agent.state.messages).toHaveLength(2);

		const { tool } = recordingTool("t");
		const tools = [tool];
		agent.state.tools = tools;
		tools.pop();
		expect(agent.state.tools).toEqual([tool]);
		agent.state.tools.pop();
		expect(agent.state.tools).toEqual([]);
	});
});

describe("default stream function", () => {
	afterEach(() => setDefaultStreamFn(undefined));

	it("is required when no streamFn is passed", () => {
		expect(() => new Agent()).toThrow(
			"No default stream function configured. Pass streamFn explicitly or call setDefaultStreamFn().",
		);
	});

	it("is used when installed and can be cleared again", () => {
		const fn = (() => {}) as unknown as StreamFn;
		setDefaultStreamFn(fn);
		expect(new Agent().streamFunction).toBe(fn);
		setDefaultStreamFn(undefined);
		expect(() => new Agent()).toThrow(/No default stream function configured/);
	});
});

describe("default convertToLlm", () => {
	it("drops custom roles from the provider context but keeps them in the transcript", async () => {
		const seenRoles: string[][] = [];
		const { agent } = scriptedAgent([
			(context) => {
				seenRoles.push(context.messages.map((message) => message.role));
				return fauxAssistantMessage("ok");
			},
		]);
		agent.state.messages.push({ role: "notification", text: "build finished", timestamp: 1 });
		await agent.prompt("hello");
		expect(seenRoles).toEqual([["user"]]);
		expect(agent.state.messages.map((message) => message.role)).toEqual(["notification", "user", "assistant"]);
	});
});

describe("reset", () => {
	it("keeps only the replayed system baseline and clears run state and queues", async () => {
		const { agent } = scriptedAgent([fauxAssistantMessage("", { stopReason: "error", errorMessage: "boom" })], [], {
			initialState: { systemPrompt: "Base." },
		});
		agent.state.messages.push({ role: "system", content: "", sections: { extra: "More." }, timestamp: 9 });
		await agent.prompt("hi");
		expect(agent.state.errorMessage).toBe("boom");
		agent.steer({ role: "user", content: "s", timestamp: 1 });
		agent.followUp({ role: "user", content: "f", timestamp: 1 });
		agent.reset();
		expect(agent.state.messages).toEqual([
			{ role: "system", content: "Base.", sections: { extra: "More." }, timestamp: 0 },
		]);
		expect(agent.state.errorMessage).toBeUndefined();
		expect(agent.state.pendingToolCalls.size).toBe(0);
		expect(agent.hasQueuedMessages()).toBe(false);
	});

	it("leaves an empty transcript when there is no baseline", async () => {
		const { agent } = scriptedAgent([fauxAssistantMessage("ok")]);
		await agent.prompt("hi");
		agent.reset();
		expect(agent.state.messages).toEqual([]);
	});
});

describe("pendingToolCalls", () => {
	it("holds the id between start and end and is replaced on every change", async () => {
		const running = gate();
		const { tool } = recordingTool("slow", async () => {
			await running.promise;
			return { content: [], details: {} };
		});
		const { agent } = scriptedAgent(
			[
				fauxAssistantMessage(fauxToolCall("slow", {}, { id: "s1" }), { stopReason: "toolUse" }),
				fauxAssistantMessage("done"),
			],
			[tool],
		);
		const snapshots: ReadonlySet<string>[] = [];
		agent.subscribe((event) => {
			if (event.type === "tool_execution_start") {
				snapshots.push(agent.state.pendingToolCalls);
				running.release();
			}
			if (event.type === "tool_execution_end") snapshots.push(agent.state.pendingToolCalls);
		});
		const before = agent.state.pendingToolCalls;
		await agent.prompt("go");
		expect([...snapshots[0]!]).toEqual(["s1"]);
		expect([...snapshots[1]!]).toEqual([]);
		expect(snapshots[0]).not.toBe(before);
		expect(snapshots[1]).not.toBe(snapshots[0]);
	});
});

describe("streamingMessage and errorMessage", () => {
	it("streamingMessage follows message_start/update/end of any role", async () => {
		const { agent } = scriptedAgent([fauxAssistantMessage("streamed text")]);
		const seen: string[] = [];
		agent.subscribe((event) => {
			if (event.type === "message_start" || event.type === "message_update") {
				expect(agent.state.streamingMessage).toBe(event.message);
				seen.push(`${event.type}:${event.message.role}`);
			}
			if (event.type === "message_end") expect(agent.state.streamingMessage).toBeUndefined();
		});
		await agent.prompt("hi");
		expect(seen).toContain("message_start:user");
		expect(seen).toContain("message_update:assistant");
		expect(agent.state.streamingMessage).toBeUndefined();
	});

	it("errorMessage survives the run and is cleared when the next run starts", async () => {
		const { agent } = scriptedAgent([
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "rate limited" }),
			fauxAssistantMessage("fine now"),
		]);
		await agent.prompt("one");
		expect(agent.state.errorMessage).toBe("rate limited");
		const second = agent.prompt("two");
		expect(agent.state.errorMessage).toBeUndefined();
		await second;
		expect(agent.state.errorMessage).toBeUndefined();
	});
});

describe("idle behaviour", () => {
	it("waitForIdle resolves immediately and abort is a no-op", async () => {
		const { agent } = scriptedAgent([]);
		agent.abort();
		await agent.waitForIdle();
		expect(agent.signal).toBeUndefined();
		expect(agent.state.isStreaming).toBe(false);
	});
});
