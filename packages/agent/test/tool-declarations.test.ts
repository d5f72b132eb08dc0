import type { AgentMessage, AgentTool } from "@tau/agent";
import { fauxAssistantMessage, getCurrentTools, type SystemMessage, toToolDeclaration } from "@tau/ai";
import { describe, expect, it } from "vitest";
import { describeEvents, recordingTool, scriptedAgent } from "./support/harness.js";

const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });

function systemMessages(messages: readonly AgentMessage[]): SystemMessage[] {
	return messages.filter((message): message is SystemMessage => message.role === "system");
}

describe("tool set changes between runs", () => {
	it("inserts a system message with toolsAdded before the next prompt (sequence E)", async () => {
		const { agent, events } = scriptedAgent([fauxAssistantMessage("a"), fauxAssistantMessage("b")]);
		await agent.prompt("first");
		const { tool } = recordingTool("search");
		agent.state.tools = [tool];
		events.length = 0;
		await agent.prompt("again");
		expect(describeEvents(events).slice(2, 6)).toEqual([
			"message_start:system",
			"message_end:system",
			"message_start:user",
			"message_end:user",
		]);
		const declaration = events[2]?.type === "message_start" ? events[2].message : undefined;
		expect(declaration).toEqual({
			role: "system",
			content: "",
			toolsAdded: [toToolDeclaration(tool)],
			timestamp: expect.any(Number),
		});
	});

	it("inserts nothing when the tools did not change", async () => {
		const { tool } = recordingTool("search");
		const { agent } = scriptedAgent([fauxAssistantMessage("a"), fauxAssistantMessage("b")], [tool]);
		await agent.prompt("first");
		await agent.prompt("again");
		expect(systemMessages(agent.state.messages)).toHaveLength(1);
	});

	it("declares a changed description as removal plus addition of the same name", async () => {
		const { tool } = recordingTool("search");
		const { agent } = scriptedAgent([fauxAssistantMessage("a")], [tool]);
		const changed: AgentTool<any> = { ...tool, description: "search, now with regex" };
		agent.state.tools = [changed];
		await agent.prompt("go");
		expect(systemMessages(agent.state.messages)[1]).toMatchObject({
			toolsRemoved: [{ name: "search" }],
			toolsAdded: [toToolDeclaration(changed)],
		});
	});

	it("sees a parameter schema edited in place on the same tool object, and declares a plain copy", async () => {
		const parameters = { type: "object", properties: { query: { type: "string" } } };
		const { tool } = recordingTool("search", undefined, { parameters });
		const { agent } = scriptedAgent([fauxAssistantMessage("a"), fauxAssistantMessage("b")], [tool]);
		await agent.prompt("first");
		(tool.parameters as { properties: Record<string, unknown> }).properties.regex = { type: "boolean" };
		await agent.prompt("again");
		const [, redeclared] = systemMessages(agent.state.messages);
		expect(redeclared).toMatchObject({ toolsRemoved: [{ name: "search" }], toolsAdded: [toToolDeclaration(tool)] });
		const added = redeclared?.toolsAdded?.[0];
		expect(added).not.toHaveProperty("execute");
		expect(added?.parameters).not.toBe(tool.parameters);
	});

	it("declares removed tools", async () => {
		const { tool } = recordingTool("search");
		const { agent } = scriptedAgent([fauxAssistantMessage("a")], [tool]);
		agent.state.tools = [];
		await agent.prompt("go");
		const [, removal] = systemMessages(agent.state.messages);
		expect(removal).toMatchObject({ toolsRemoved: [{ name: "search" }] });
		expect(removal).not.toHaveProperty("toolsAdded");
	});
});

describe("pending system messages", () => {
	it("get their tool fields replaced by the real delta while content and sections stay", async () => {
		const { tool } = recordingTool("real");
		const { agent } = scriptedAgent([fauxAssistantMessage("ok")]);
		agent.state.tools = [tool];
		const bogus = { name: "bogus", description: "never executable", parameters: {} };
		const patch: SystemMessage = {
			role: "system",
			content: "Extra rule.",
			sections: { tone: "Calm." },
			toolsAdded: [bogus],
			timestamp: 4,
		};
		await agent.prompt([patch, user("go")]);
		const [declared] = systemMessages(agent.state.messages);
		expect(declared).toEqual({
			role: "system",
			content: "Extra rule.",
			sections: { tone: "Calm." },
			toolsAdded: [toToolDeclaration(tool)],
			timestamp: 4,
		});
		expect(getCurrentTools(agent.state.messages).map((entry) => entry.name)).toEqual(["real"]);
	});

	it("pass through as the same object when there is no delta and no tool fields", async () => {
		const { agent, events } = scriptedAgent([fauxAssistantMessage("ok")]);
		const patch: SystemMessage = { role: "system", content: "Be brief.", timestamp: 4 };
		await agent.prompt([patch, user("go")]);
		const emitted = events.find((event) => event.type === "message_end" && event.message.role === "system");
		expect(emitted?.type === "message_end" && emitted.message).toBe(patch);
	});
});

describe("invariant", () => {
	it("after every request the declared tools equal the executable tools", async () => {
		const a = recordingTool("a").tool;
		const b = recordingTool("b").tool;
		const { agent } = scriptedAgent(
			[fauxAssistantMessage("1"), fauxAssistantMessage("2"), fauxAssistantMessage("3")],
			[a],
		);
		const declared = () => getCurrentTools(agent.state.messages);
		await agent.prompt("one");
		expect(declared()).toEqual([toToolDeclaration(a)]);
		agent.state.tools = [a, b];
		await agent.prompt("two");
		expect(declared()).toEqual([toToolDeclaration(a), toToolDeclaration(b)]);
		agent.state.tools = [b];
		await agent.prompt("three");
		expect(declared()).toEqual([toToolDeclaration(b)]);
	});
});
