import type { AgentMessage } from "@tau/agent";
import { getCurrentSystemMessage, getSystemMessageText } from "@tau/ai";
import { buildSessionProjection, type SessionEntry, SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import type { SessionMessage } from "../../src/core/session/index.js";
import { assistant, toolCallAssistant, toolResult, user } from "./helpers.js";

function roles(manager: SessionManager): string[] {
	return manager.buildSessionContext().messages.map((m) => m.role);
}

describe("context projection", () => {
	it("without compaction the context is the whole path; thinking defaults to off, model from the latest change", () => {
		const manager = SessionManager.inMemory("/w");
		expect(manager.buildSessionContext()).toEqual({ messages: [], thinkingLevel: "off", model: null });
		manager.appendModelChange("p1", "m1");
		manager.appendMessage(user("a"));
		expect(manager.buildSessionContext().model).toEqual({ provider: "p1", modelId: "m1" });
		manager.appendMessage(assistant("b", { provider: "p2", model: "m2" }));
		manager.appendThinkingLevelChange("high");
		const context = manager.buildSessionContext();
		expect(context.model).toEqual({ provider: "p2", modelId: "m2" });
		expect(context.thinkingLevel).toBe("high");
		expect(context.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		// The coding agent's roles are part of AgentMessage, so a projection feeds an Agent as is.
		const forAgent: AgentMessage[] = context.messages;
		expect(forAgent).toBe(context.messages);
	});

	it("with compaction: checkpoint, summary, kept non-system entries, then later entries", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage({ role: "system", content: "base", sections: { a: "<a/>" }, timestamp: 5 });
		manager.appendMessage(user("old"));
		const kept = manager.appendMessage(user("kept"));
		manager.appendMessage({ role: "system", content: "", sections: { b: "<b/>" }, timestamp: 6 });
		manager.appendMessage(assistant("kept answer"));
		const compaction = manager.appendCompaction("summary", kept, 500);
		manager.appendMessage(user("after"));
		const messages = manager.buildSessionContext().messages;
		expect(messages.map((m) => m.role)).toEqual(["system", "compactionSummary", "user", "assistant", "user"]);
		expect(messages[0]).toEqual({
			role: "system",
			content: "base",
			sections: { a: "<a/>", b: "<b/>" },
			timestamp: Date.parse(manager.getEntry(compaction)!.timestamp),
		});
		expect(messages[1]).toMatchObject({ summary: "summary", tokensBefore: 500 });
		expect(manager.buildContextEntries()[0]!.id).toBe(compaction);
	});

	it("system patches after a compaction apply on top of its checkpoint", () => {
		const manager = SessionManager.inMemory("/w");
		const tool = (name: string) => ({ name, description: name, parameters: { type: "object" } });
		manager.appendMessage({
			role: "system",
			content: "base",
			sections: { a: "A" },
			toolsAdded: [tool("read")],
			timestamp: 5,
		});
		manager.appendMessage(user("q"));
		manager.appendCompaction("sum", null, 10);
		manager.appendMessage({
			role: "system",
			content: "",
			sections: { a: null, b: "B" },
			toolsRemoved: [{ name: "read" }],
			toolsAdded: [tool("edit")],
			timestamp: 9,
		});
		const messages = manager.buildSessionContext().messages;
		expect(messages.map((m) => m.role)).toEqual(["system", "compactionSummary", "system"]);
		const replayed = getCurrentSystemMessage(messages)!;
		expect(replayed.sections).toEqual({ b: "B" });
		expect(replayed.toolsAdded!.map((t) => t.name)).toEqual(["edit"]);
		expect(getSystemMessageText(replayed)).toBe("base\n\nB");
	});

	it("retain-none compaction keeps nothing before it", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user("old"));
		const id = manager.appendCompaction("all gone", null, 100);
		expect(manager.getEntry(id)).toMatchObject({ firstKeptEntryId: id });
		expect(roles(manager)).toEqual(["compactionSummary"]);
	});

	it("an older compaction inside the newer one's kept range contributes nothing", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user("a"));
		const keptStart = manager.appendMessage(user("b"));
		manager.appendCompaction("older", keptStart, 10);
		manager.appendMessage(user("c"));
		manager.appendCompaction("newer", keptStart, 20);
		const projection = manager.buildSessionProjection();
		const summaries = projection.messages.filter((m) => m.role === "compactionSummary");
		expect(summaries).toEqual([expect.objectContaining({ summary: "newer" })]);
		expect(projection.entries.map((e) => e.sourceEntry.type)).toEqual([
			"compaction",
			"message",
			"compaction",
			"message",
		]);
		expect(projection.entries[2]!.messages).toEqual([]);
	});

	it("system replay: later patches apply on top; tools removed before added within one message", () => {
		const tool = (name: string, v: number) => ({ name, description: `v${v}`, parameters: { type: "object" } });
		const messages: SessionMessage[] = [
			{
				role: "system" as const,
				content: "base",
				sections: { s: "1" },
				toolsAdded: [tool("read", 1)],
				timestamp: 1,
			},
			{
				role: "system" as const,
				content: "",
				toolsRemoved: [{ name: "read" }],
				toolsAdded: [tool("read", 2)],
				timestamp: 2,
			},
			{
				role: "system" as const,
				content: [{ type: "text" as const, text: "more" }],
				sections: { s: null, t: "2" },
				timestamp: 3,
			},
		];
		const replayed = getCurrentSystemMessage(messages)!;
		expect(replayed).toEqual({
			role: "system",
			content: "base\n\nmore",
			sections: { t: "2" },
			toolsAdded: [tool("read", 2)],
			timestamp: 1,
		});
		expect(getSystemMessageText(replayed)).toBe("base\n\nmore\n\n2");
		expect(getCurrentSystemMessage([user("x")])).toBeUndefined();
	});

	it("context edits: null omits, replacements keep metadata, latest wins, provenance keeps the original", () => {
		const manager = SessionManager.inMemory("/w");
		const u = manager.appendMessage(user("original question"));
		const a = manager.appendMessage(assistant("original answer", { provider: "px" }));
		manager.appendContextEdit(a, { content: "first rewrite" });
		expect(manager.getBranch().at(-1)).toMatchObject({
			replacement: { content: [{ type: "text", text: "first rewrite" }] },
		});
		manager.appendContextEdit(a, { content: "second rewrite" });
		manager.appendContextEdit(u, null);
		const projection = manager.buildSessionProjection();
		expect(projection.messages).toEqual([{ ...assistant("second rewrite", { provider: "px" }) }]);
		const source = projection.entries.find((e) => e.sourceEntry.id === a)!.sourceEntry as SessionEntry & {
			message: { content: unknown };
		};
		expect(source.message.content).toEqual([{ type: "text", text: "original answer" }]);
	});

	it("context edits are branch relative: a sibling's edit has no effect; navigating above restores", () => {
		const manager = SessionManager.inMemory("/w");
		const u = manager.appendMessage(user("q"));
		const a = manager.appendMessage(assistant("answer"));
		manager.appendContextEdit(u, null);
		expect(roles(manager)).toEqual(["assistant"]);
		manager.branch(a);
		manager.appendMessage(user("sibling path"));
		expect(roles(manager)).toEqual(["user", "assistant", "user"]);
		manager.branch(a);
		expect(roles(manager)).toEqual(["user", "assistant"]);
	});

	it("custom messages and tool results accept edits; user string replacement stays a string", () => {
		const manager = SessionManager.inMemory("/w");
		const u = manager.appendMessage(user("q"));
		manager.appendMessage(toolCallAssistant([{ id: "c1", name: "read", arguments: { path: "a" } }]));
		const r = manager.appendMessage(toolResult("c1", "big output"));
		const c = manager.appendCustomMessageEntry("note", "n", false);
		manager.appendContextEdit(u, { content: "q2" });
		manager.appendContextEdit(r, { content: "trimmed" });
		manager.appendContextEdit(c, { content: [{ type: "text", text: "n2" }] });
		const messages = manager.buildSessionContext().messages;
		expect(messages[0]).toMatchObject({ role: "user", content: "q2" });
		expect(messages[2]).toMatchObject({
			role: "toolResult",
			toolCallId: "c1",
			content: [{ type: "text", text: "trimmed" }],
		});
		expect(messages[3]).toMatchObject({
			role: "custom",
			customType: "note",
			content: [{ type: "text", text: "n2" }],
		});
	});

	it("appendContextEdit validates in order", () => {
		const manager = SessionManager.inMemory("/w");
		const sys = manager.appendMessage({ role: "system", content: "p", timestamp: 1 });
		const model = manager.appendModelChange("p", "m");
		const u = manager.appendMessage(user("q"));
		expect(() => manager.appendContextEdit(u, { content: 5 } as never)).toThrow(
			"Context edit replacement must be null or contain string/array content",
		);
		expect(() => manager.appendContextEdit("nope", null)).toThrow("Entry nope not found");
		expect(() => manager.appendContextEdit(sys, null)).toThrow(
			`Entry ${sys} does not contribute editable model content`,
		);
		expect(() => manager.appendContextEdit(model, null)).toThrow(
			`Entry ${model} does not contribute editable model content`,
		);
		manager.resetLeaf();
		manager.appendMessage(user("other root"));
		expect(() => manager.appendContextEdit(u, null)).toThrow(`Entry ${u} is not on the active branch`);
	});

	it("null content projects as empty without mutating stored entries", () => {
		const raw = (id: string, parentId: string | null, message: Record<string, unknown>) =>
			({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:00.000Z", message }) as unknown as SessionEntry;
		const entries = [
			raw("s", null, { role: "system", content: null, timestamp: 1 }),
			raw("u", "s", { role: "user", timestamp: 2 }),
			raw("a", "u", { role: "assistant", content: null, timestamp: 3 }),
			raw("x", "a", { role: "weird", content: null, timestamp: 4 }),
		];
		const projection = buildSessionProjection(entries);
		expect(projection.messages.map((m) => (m as { content?: unknown }).content)).toEqual(["", [], [], null]);
		expect((entries[0] as { message: { content: unknown } }).message.content).toBeNull();
		expect("content" in (entries[1] as { message: object }).message).toBe(false);
	});

	it("summary roles cannot be appended as messages", () => {
		const manager = SessionManager.inMemory("/w");
		expect(() =>
			manager.appendMessage({ role: "compactionSummary", summary: "x", tokensBefore: 1, timestamp: 1 } as never),
		).toThrow(/only in projections/);
	});
});
