import type { AssistantMessage, Message, SystemMessage, Tool } from "@tau/ai";
import { describe, expect, it } from "vitest";
import {
	API_KEY,
	assistantMessage,
	body,
	collect,
	mockServer,
	transcript,
	WIRE_APIS,
	type WireApi,
	wireApi,
	wireModel,
} from "./wire-harness.js";

type Json = Record<string, unknown>;

function tool(name: string): Tool {
	return { name, description: `The ${name} tool`, parameters: { type: "object", properties: {} } };
}

function assistant(api: WireApi, text: string): AssistantMessage {
	return assistantMessage(api, [{ type: "text", text }]);
}

const base: SystemMessage = {
	role: "system",
	content: "Base",
	sections: { rules: "Rule one" },
	toolsAdded: [tool("read")],
	timestamp: 1,
};
const patch: SystemMessage = {
	role: "system",
	content: "More",
	sections: { rules: "Rule two", extra: "Extra" },
	toolsAdded: [tool("write")],
	toolsRemoved: [{ name: "read" }],
	timestamp: 3,
};
const addition: SystemMessage = { role: "system", content: "", toolsAdded: [tool("grep")], timestamp: 5 };

function conversation(api: WireApi, ...tail: Message[]): Message[] {
	return [base, { role: "user", content: "first", timestamp: 1 }, assistant(api, "one"), ...tail];
}

const UPDATE =
	'More\n\nUpdated system prompt section "rules":\n\nRule two\n\nUpdated system prompt section "extra":\n\nExtra';

/** The tool names a request declares at the top level. */
function topLevelTools(api: WireApi, request: Json): string[] {
	const tools = (request.tools ?? []) as Json[];
	return tools.map((t) => (api === "openai-completions" ? (t.function as Json).name : t.name) as string);
}

/** Instruction texts in request order, with the role each was sent as. */
function instructions(api: WireApi, request: Json): { role: string; text: string }[] {
	const list: { role: string; text: string }[] = [];
	if (api === "anthropic-messages" && Array.isArray(request.system)) {
		list.push({ role: "system-param", text: (request.system as Json[]).map((b) => b.text).join("") });
	}
	const items = (api === "openai-responses" ? request.input : request.messages) as Json[];
	for (const item of items) {
		if (item.role !== "system" && item.role !== "developer") continue;
		if (item.tools) continue;
		const content = item.content;
		const text = typeof content === "string" ? content : (content as Json[]).map((b) => b.text).join("");
		list.push({ role: item.role as string, text });
	}
	return list;
}

async function request(api: WireApi, messages: Message[], compat: Json = {}): Promise<Json> {
	const server = await mockServer();
	server.enqueue({ text: "ok" });
	const model = wireModel(api, server, { compat });
	await collect(wireApi(api).stream(model, transcript({ messages }), { apiKey: API_KEY, cacheRetention: "none" }));
	return body(server.requests[0]);
}

describe.each(WIRE_APIS)("%s with mid-conversation prompt and tool changes", (api) => {
	it("collapses to one leading system message with the replayed prompt and current tools by default", async () => {
		const sent = await request(api, conversation(api, patch, { role: "user", content: "second", timestamp: 4 }));
		const expectedRole = api === "anthropic-messages" ? "system-param" : "system";
		expect(instructions(api, sent)).toEqual([{ role: expectedRole, text: "Base\n\nMore\n\nRule two\n\nExtra" }]);
		expect(topLevelTools(api, sent)).toEqual(["write"]);
	});

	it("sends later system messages in place, framed by section, when the model supports it", async () => {
		const sent = await request(api, conversation(api, patch, { role: "user", content: "second", timestamp: 4 }), {
			supportsMidConvoSystemMessages: true,
		});
		const first = api === "anthropic-messages" ? "system-param" : "system";
		expect(instructions(api, sent)).toEqual([
			{ role: first, text: "Base\n\nRule one" },
			{ role: "system", text: UPDATE },
		]);
		expect(topLevelTools(api, sent)).toEqual(["write"]);
		const items = (api === "openai-responses" ? sent.input : sent.messages) as Json[];
		const roles = items.map((item) => (item.type === "message" ? "assistant" : item.role));
		const expectedRoles = {
			"anthropic-messages": ["user", "assistant", "user", "system"],
			"openai-completions": ["system", "user", "assistant", "system", "user"],
			"openai-responses": ["system", "user", "assistant", "system", "user"],
		}[api];
		expect(roles).toEqual(expectedRoles);
	});
});

describe("anthropic-messages in-place system messages", () => {
	it("hold back until just before the next assistant message, so tool results stay next to their calls", async () => {
		const api = "anthropic-messages";
		const call: AssistantMessage = {
			...assistant(api, ""),
			content: [{ type: "toolCall", id: "toolu_1", name: "write", arguments: {} }],
			stopReason: "toolUse",
		};
		const messages: Message[] = [
			base,
			{ role: "user", content: "first", timestamp: 1 },
			call,
			patch,
			{
				role: "toolResult",
				toolCallId: "toolu_1",
				toolName: "write",
				content: [{ type: "text", text: "done" }],
				isError: false,
				timestamp: 4,
			},
			assistant(api, "two"),
			{ role: "user", content: "third", timestamp: 6 },
		];
		const sent = await request(api, messages, { supportsMidConvoSystemMessages: true });
		const roles = (sent.messages as Json[]).map((m) => m.role);
		expect(roles).toEqual(["user", "assistant", "user", "system", "assistant", "user"]);
		expect((((sent.messages as Json[])[2]?.content ?? []) as Json[])[0]?.type).toBe("tool_result");
	});
});

describe("openai-completions in-place tool additions", () => {
	it("anchors later additions at their message and keeps the top-level list at the last removal", async () => {
		const api = "openai-completions";
		const sent = await request(
			api,
			conversation(api, patch, { role: "user", content: "second", timestamp: 4 }, assistant(api, "two"), addition, {
				role: "user",
				content: "third",
				timestamp: 6,
			}),
			{ supportsMidConvoSystemMessages: true, supportsMidConvoToolAdditions: true },
		);
		expect(topLevelTools(api, sent)).toEqual(["write"]);
		const anchored = (sent.messages as Json[]).filter((m) => Array.isArray(m.tools));
		expect(anchored).toEqual([
			{
				role: "system",
				tools: [
					{
						type: "function",
						function: {
							name: "grep",
							description: "The grep tool",
							parameters: { type: "object", properties: {} },
						},
					},
				],
			},
		]);
		const roles = (sent.messages as Json[]).map((m) => m.role);
		expect(roles).toEqual(["system", "user", "assistant", "system", "user", "assistant", "system", "user"]);
	});

	it("without the additions flag declares the current tools at the top level only", async () => {
		const api = "openai-completions";
		const sent = await request(
			api,
			conversation(api, patch, { role: "user", content: "x", timestamp: 4 }, assistant(api, "two"), addition),
			{
				supportsMidConvoSystemMessages: true,
			},
		);
		expect(topLevelTools(api, sent)).toEqual(["write", "grep"]);
		expect((sent.messages as Json[]).some((m) => Array.isArray(m.tools))).toBe(false);
	});
});
