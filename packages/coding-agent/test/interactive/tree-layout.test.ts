import { describe, expect, it } from "vitest";
import type { SessionEntry, SessionTreeNode } from "../../src/core/session/index.js";
import { toolCallsOf, treeEntryText } from "../../src/modes/interactive/commands/tree-entry-text.js";
import { layoutTree } from "../../src/modes/interactive/commands/tree-layout.js";

const timestamp = new Date(0).toISOString();

function message(id: string, parentId: string | null, role: string, content: unknown, extra = {}): SessionEntry {
	return {
		type: "message",
		id,
		parentId,
		timestamp,
		message: { role, content, timestamp: 0, ...extra },
	} as SessionEntry;
}

function node(entry: SessionEntry, ...children: SessionTreeNode[]): SessionTreeNode {
	return { entry, children };
}

/** The rows as `/tree` lists them: connectors, the active-path marker and the entry's name. */
function lines(roots: SessionTreeNode[], activePath: string[], folded: string[] = []): string[] {
	return layoutTree(roots, {
		shown: () => true,
		folded: new Set(folded),
		activePath: new Set(activePath),
	}).map((row) => `${row.prefix}${row.active ? "• " : ""}${treeEntryText(row.node.entry, new Map())}`);
}

// q1 → a1, which branches into q2 → a2 and q3 → a3; the current leaf is a3.
const tree = [
	node(
		message("q1", null, "user", "first"),
		node(
			message("a1", "q1", "assistant", [{ type: "text", text: "one" }]),
			node(message("q2", "a1", "user", "second"), node(message("a2", "q2", "assistant", "two"))),
			node(message("q3", "a1", "user", "third"), node(message("a3", "q3", "assistant", "three"))),
		),
	),
];

describe("/tree rows (as pi draws them)", () => {
	it("draws branch connectors and gutters, the branch holding the current leaf first", () => {
		expect(lines(tree, ["a3", "q3", "a1", "q1"])).toEqual([
			"• user: first",
			"• assistant: one",
			"├⊟ • user: third",
			"│     • assistant: three",
			"└⊟ user: second",
			"      assistant: two",
		]);
	});

	it("a folded entry hides what is below it and shows it in its connector", () => {
		expect(lines(tree, ["a3", "q3", "a1", "q1"], ["q3"])).toEqual([
			"• user: first",
			"• assistant: one",
			"├⊞ • user: third",
			"└⊟ user: second",
			"      assistant: two",
		]);
	});

	it("keeps a single-child chain flat (no indentation per entry)", () => {
		let chain = node(message("e999", "e998", "user", "last"));
		for (let i = 998; i >= 0; i--) chain = node(message(`e${i}`, i ? `e${i - 1}` : null, "user", `m${i}`), chain);
		const rows = layoutTree([chain], { shown: () => true, folded: new Set(), activePath: new Set() });
		expect(rows).toHaveLength(1000);
		expect(rows.every((row) => row.prefix === "")).toBe(true);
	});

	it("names entries as pi does: tool results by their call, compactions by size, settings in brackets", () => {
		const call = message("a", null, "assistant", [
			{ type: "toolCall", id: "c1", name: "read", arguments: { path: "src/x.ts", offset: 5, limit: 10 } },
			{ type: "toolCall", id: "c2", name: "bash", arguments: { command: "ls -la" } },
		]);
		const calls = toolCallsOf([call]);
		const result = (id: string) => message(`r${id}`, "a", "toolResult", [], { toolCallId: id, toolName: "x" });
		expect(treeEntryText(result("c1"), calls)).toBe("[read: src/x.ts:5-14]");
		expect(treeEntryText(result("c2"), calls)).toBe("[bash: ls -la]");
		const base = { id: "x", parentId: null, timestamp };
		const entries = [
			{ ...base, type: "compaction", summary: "s", firstKeptEntryId: "a", tokensBefore: 12_400 },
			{ ...base, type: "model_change", provider: "p", modelId: "m-1" },
			{ ...base, type: "thinking_level_change", thinkingLevel: "high" },
			{ ...base, type: "branch_summary", fromId: "a", summary: "went\nelsewhere" },
		] as SessionEntry[];
		expect(entries.map((entry) => treeEntryText(entry, calls))).toEqual([
			"[compaction: 12k tokens]",
			"[model: m-1]",
			"[thinking: high]",
			"[branch summary]: went elsewhere",
		]);
		expect(treeEntryText(message("e", null, "assistant", [], { stopReason: "aborted" }), calls)).toBe(
			"assistant: (aborted)",
		);
	});
});
