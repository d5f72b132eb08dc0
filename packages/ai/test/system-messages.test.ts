import {
	type AssistantMessage,
	collapseSystemMessages,
	getCurrentSystemMessage,
	getCurrentSystemPrompt,
	getCurrentTools,
	getDeclaredTools,
	getSystemMessageText,
	getToolStateChanges,
	hasNonAdditiveToolChanges,
	hasToolRedefinitions,
	type Message,
	normalizeContext,
	renderSystemMessageUpdate,
	resolveTranscript,
	resolveTranscriptTools,
	type SystemMessage,
	type Tool,
	type ToolResultMessage,
	withoutInitialSystemMessage,
	zeroUsage,
} from "@tau/ai";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";

const tool = (name: string, description = `${name} tool`): Tool => ({
	name,
	description,
	parameters: { type: "object", properties: {} },
});
const user = (text: string): Message => ({ role: "user", content: text, timestamp: 1 });
const system = (fields: Partial<SystemMessage>): SystemMessage => ({
	role: "system",
	content: "",
	timestamp: 5,
	...fields,
});

describe("normalizeContext", () => {
	it("moves the shorthand prompt and tools into one leading system message", () => {
		const t = tool("t");
		const u = user("hi");
		expect(normalizeContext({ systemPrompt: "S", tools: [t], messages: [u] }).messages).toEqual([
			{ role: "system", content: "S", toolsAdded: [t], timestamp: 0 },
			u,
		]);
	});

	it("adds nothing without prompt and tools, and never deduplicates", () => {
		const messages = [user("a")];
		expect(normalizeContext({ messages }).messages).toBe(messages);
		expect(normalizeContext({ systemPrompt: "", tools: [], messages }).messages).toEqual(messages);
		const existing = system({ content: "old" });
		const out = normalizeContext({ systemPrompt: "new", messages: [existing] }).messages;
		expect(out).toEqual([{ role: "system", content: "new", timestamp: 0 }, existing]);
	});
});

describe("system message replay", () => {
	const t1 = tool("t1");
	const t2 = tool("t2");
	const transcript: Message[] = [
		system({ content: "Base", sections: { a: "A", b: "B" }, toolsAdded: [t1], timestamp: 7 }),
		user("u"),
		system({
			content: "More",
			sections: { a: null, c: "c", b: "b2" },
			toolsRemoved: [{ name: "t1" }],
			toolsAdded: [t2],
		}),
	];

	it("appends content, patches sections in place and applies tool removals before additions", () => {
		expect(getCurrentSystemPrompt(transcript)).toBe("Base\n\nMore\n\nb2\n\nc");
		expect(getCurrentTools(transcript)).toEqual([t2]);
		const head = getCurrentSystemMessage(transcript)!;
		expect(head.sections).toEqual({ b: "b2", c: "c" });
		expect(Object.keys(head.sections!)).toEqual(["b", "c"]);
		expect(head.timestamp).toBe(7);
	});

	it("collapses to exactly one leading system message", () => {
		const collapsed = collapseSystemMessages(normalizeContext({ messages: transcript })).messages;
		expect(collapsed.filter((m) => m.role === "system")).toHaveLength(1);
		expect(collapsed[0]?.role).toBe("system");
		expect(collapsed.slice(1)).toEqual([user("u")]);
		const ctx = normalizeContext({ messages: transcript });
		expect(resolveTranscript(ctx, true)).toBe(ctx);
		expect(resolveTranscript(ctx, false).messages).toHaveLength(2);
	});

	it("moves a deleted-then-re-added section to the end", () => {
		const messages = [
			system({ sections: { x: "1", y: "2" } }),
			system({ sections: { x: null } }),
			system({ sections: { x: "3" } }),
		];
		expect(getCurrentSystemPrompt(messages)).toBe("2\n\n3");
	});

	it("handles empty lists, custom roles and tools-only transcripts", () => {
		expect(getCurrentSystemMessage([])).toBeUndefined();
		const custom = [{ role: "bashExecution", command: "ls" }, system({ toolsAdded: [t1] })];
		expect(getCurrentTools(custom)).toEqual([t1]);
		expect(getCurrentSystemPrompt(custom)).toBe("");
		expect(withoutInitialSystemMessage(transcript)).toHaveLength(2);
	});

	it("renders texts and update framing exactly", () => {
		expect(
			getSystemMessageText(
				system({
					content: [
						{ type: "text", text: "a" },
						{ type: "text", text: "b" },
					],
					sections: { s: null, t: "", u: "U" },
				}),
			),
		).toBe("a\nb\n\nU");
		expect(renderSystemMessageUpdate(system({ content: "Note", sections: { old: null, rules: "Be nice." } }))).toBe(
			'Note\n\nRemoved system prompt section "old".\n\nUpdated system prompt section "rules":\n\nBe nice.',
		);
	});
});

describe("tool declarations", () => {
	it("computes state changes in list order, with changed definitions in both lists", () => {
		const a = tool("a");
		const b = tool("b");
		const c = tool("c");
		expect(getToolStateChanges([a, b], [a, b])).toEqual({ toolsAdded: [], toolsRemoved: [] });
		const bChanged = tool("b", "new description");
		expect(getToolStateChanges([a, b, c], [c, bChanged])).toEqual({
			toolsAdded: [bChanged],
			toolsRemoved: [{ name: "a" }, { name: "b" }],
		});
	});

	it("strips runtime fields and compares TypeBox schemas with their JSON form", () => {
		const schema = Type.Object({ path: Type.String() });
		const runtime = { ...tool("r"), parameters: schema, execute: () => {}, label: "R" } as Tool;
		const { toolsAdded } = getToolStateChanges([], [runtime]);
		expect(Object.keys(toolsAdded[0]!).sort()).toEqual(["description", "name", "parameters"]);
		const plain = { ...tool("r"), parameters: JSON.parse(JSON.stringify(schema)) };
		expect(getToolStateChanges([runtime], [plain])).toEqual({ toolsAdded: [], toolsRemoved: [] });
	});

	it("tracks declared tools, redefinitions and non-additive changes", () => {
		const additive = [system({ toolsAdded: [tool("a")] }), system({ toolsAdded: [tool("b")] })];
		expect(hasNonAdditiveToolChanges(additive)).toBe(false);
		const redefined = [...additive, system({ toolsAdded: [tool("a", "v2")] })];
		expect(hasNonAdditiveToolChanges(redefined)).toBe(true);
		expect(hasToolRedefinitions(redefined)).toBe(true);
		expect(getDeclaredTools(redefined)).toEqual([tool("a", "v2"), tool("b")]);
		expect(hasToolRedefinitions([...additive, system({ toolsAdded: [tool("a")] })])).toBe(false);
	});

	it("resolves transcript tools for none, changes and additions", () => {
		const messages: Message[] = [
			system({ toolsAdded: [tool("a")] }),
			user("1"),
			system({ toolsAdded: [tool("b")] }),
			system({ toolsRemoved: [{ name: "a" }] }),
			system({ toolsAdded: [tool("c")] }),
		];
		expect(resolveTranscriptTools(messages, "none")).toEqual({
			requestTools: [tool("b"), tool("c")],
			foldedSystemMessages: 4,
		});
		expect(resolveTranscriptTools(messages, "changes")).toEqual({ requestTools: [], foldedSystemMessages: 0 });
		expect(resolveTranscriptTools(messages, "additions")).toEqual({
			requestTools: [tool("b")],
			foldedSystemMessages: 3,
		});
		expect(resolveTranscriptTools(messages.slice(0, 3), "additions")).toEqual({
			requestTools: [tool("a")],
			foldedSystemMessages: 1,
		});
	});
});

describe("data model", () => {
	it("survives a JSON round trip for every message type", () => {
		const assistant: AssistantMessage = {
			role: "assistant",
			content: [
				{ type: "thinking", thinking: "hmm", thinkingSignature: "sig" },
				{ type: "text", text: "hi", textSignature: '{"v":1,"id":"msg_1"}' },
				{ type: "toolCall", id: "c", name: "read", arguments: { path: "a", n: [1, null] } },
			],
			api: "anthropic-messages",
			provider: "anthropic",
			model: "m",
			usage: zeroUsage(),
			stopReason: "toolUse",
			timestamp: 3,
			durationMs: 10,
			diagnostics: [{ type: "x", timestamp: 1, error: { message: "m" } }],
		};
		const result: ToolResultMessage = {
			role: "toolResult",
			toolCallId: "c",
			toolName: "read",
			content: [
				{ type: "text", text: "ok" },
				{ type: "image", data: "AAAA", mimeType: "image/png" },
			],
			details: { lines: 3 },
			nestedCalls: { calls: [{ id: "n", name: "x", status: "ok" }], complete: true },
			isError: false,
			timestamp: 4,
		};
		const messages: Message[] = [
			system({ content: "s", sections: { a: null }, toolsAdded: [tool("t")] }),
			user("u"),
			assistant,
			result,
		];
		expect(JSON.parse(JSON.stringify(messages))).toEqual(messages);
	});
});
