import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import {
	collectEntriesForBranchSummary,
	generateBranchSummary,
	prepareBranchEntries,
	SessionManager,
} from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { assistant, toolCallAssistant, toolResult, user } from "../session/helpers.js";
import { fauxSummarizer, promptOf, SUMMARY_HEADINGS, sized } from "./helpers.js";

function tree() {
	const manager = SessionManager.inMemory("/w");
	const root = manager.appendMessage(user("root"));
	const a1 = manager.appendMessage(assistant("a1"));
	const a2 = manager.appendMessage(user("a2"));
	const a3 = manager.appendMessage(assistant("a3"));
	manager.branch(a1);
	const b1 = manager.appendMessage(user("b1"));
	const b2 = manager.appendMessage(assistant("b2"));
	return { manager, root, a1, a2, a3, b1, b2 };
}

describe("branch summaries", () => {
	it("collects entries back to the common ancestor: same branch, sibling, root, no leaf", () => {
		const { manager, root, a1, a2, a3, b1, b2 } = tree();
		const ids = (x: { entries: { id: string }[] }) => x.entries.map((e) => e.id);
		expect(ids(collectEntriesForBranchSummary(manager, a3, a1))).toEqual([a2, a3]);
		const sibling = collectEntriesForBranchSummary(manager, b2, a3);
		expect(ids(sibling)).toEqual([b1, b2]);
		expect(sibling.commonAncestorId).toBe(a1);
		expect(ids(collectEntriesForBranchSummary(manager, b2, root))).toEqual([a1, b1, b2]);
		expect(collectEntriesForBranchSummary(manager, null, root)).toEqual({ entries: [], commonAncestorId: null });
		manager.resetLeaf();
		const other = manager.appendMessage(user("other root"));
		expect(collectEntriesForBranchSummary(manager, b2, other)).toMatchObject({ commonAncestorId: null });
	});

	it("fits the budget newest first, admits summaries below 90%, skips tool results, honours edits", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user(sized(500)));
		manager.branchWithSummary(manager.getLeafId(), sized(50));
		manager.appendMessage(toolCallAssistant([{ id: "e", name: "edit", arguments: { path: "e.ts" } }]));
		manager.appendMessage(toolResult("e", sized(1000)));
		const hidden = manager.appendMessage(user(sized(30)));
		const rewritten = manager.appendMessage(assistant(sized(30)));
		manager.appendContextEdit(hidden, null);
		manager.appendContextEdit(rewritten, { content: "short" });
		const entries = manager.getBranch();
		const prepared = prepareBranchEntries(entries, 80);
		expect(prepared.messages.map((m) => m.role)).toEqual(["branchSummary", "assistant", "assistant"]);
		expect(prepared.messages[2]).toMatchObject({ content: [{ type: "text", text: "short" }] });
		expect([...prepared.fileOps.edited]).toEqual(["e.ts"]);
		// Running total 7 is not below 90% of 7: the summary is not admitted.
		const tight = prepareBranchEntries(entries, 7);
		expect(tight.messages.map((m) => m.role)).toEqual(["assistant", "assistant"]);
		expect(prepareBranchEntries(entries, 0).messages.map((m) => m.role)).toEqual([
			"user",
			"branchSummary",
			"assistant",
			"assistant",
		]);
	});

	it("the budget is contextWindow - reserveTokens (default reserve 16384, default window 128000)", async () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user(`OLD${sized(80)}`));
		manager.appendMessage(assistant(`NEW${sized(50)}`));
		const entries = manager.getBranch();
		const included = async (definition: { contextWindow: number }, reserveTokens?: number) => {
			const s = fauxSummarizer([fauxAssistantMessage("x")], { id: "m", ...definition });
			await generateBranchSummary(entries, s.model, { complete: s.complete, reserveTokens });
			const prompt = promptOf(s.requests[0]!);
			return ["OLD", "NEW"].filter((marker) => prompt.includes(marker));
		};
		expect(await included({ contextWindow: 1000 }, 900)).toEqual(["NEW"]);
		expect(await included({ contextWindow: 1000 }, 800)).toEqual(["OLD", "NEW"]);
		expect(await included({ contextWindow: 16384 + 100 })).toEqual(["NEW"]);
		expect(await included({ contextWindow: 16384 + 200 })).toEqual(["OLD", "NEW"]);
		expect(await included({ contextWindow: 0 }, 128000 - 100)).toEqual(["NEW"]);
	});

	it("carries file lists of nested built-in branch summaries only", () => {
		const manager = SessionManager.inMemory("/w");
		manager.branchWithSummary(null, "built in", { readFiles: ["r.ts"], modifiedFiles: ["m.ts"] });
		manager.branchWithSummary(manager.getLeafId(), "from ext", { readFiles: ["ext.ts"], modifiedFiles: [] }, true);
		const prepared = prepareBranchEntries(manager.getBranch(), 0);
		expect([...prepared.fileOps.read]).toEqual(["r.ts"]);
		expect([...prepared.fileOps.edited]).toEqual(["m.ts"]);
	});

	it("generates a summary with preamble and file lists; returns errors and aborts as values", async () => {
		const { manager, b2, a3 } = tree();
		const { entries } = collectEntriesForBranchSummary(manager, b2, a3);
		const ok = fauxSummarizer([fauxAssistantMessage("## Goal\nb")]);
		const result = await generateBranchSummary(entries, ok.model, {
			complete: ok.complete,
			customInstructions: "only goals",
			replaceInstructions: true,
		});
		expect(result).toMatchObject({ details: { readFiles: [], modifiedFiles: [] } });
		expect((result as { summary: string }).summary).toMatch(/^The user explored[^\n]*\n[^\n]*\n\n## Goal\nb$/);
		const prompt = promptOf(ok.requests[0]!);
		expect(prompt).toBe("<conversation>\n[User]: b1\n\n[Assistant]: b2\n</conversation>\n\nonly goals");
		expect(ok.requests[0]!.options).toMatchObject({ cacheRetention: "none" });

		const tool = fauxSummarizer([fauxAssistantMessage([fauxToolCall("read", { path: "a" })])]);
		expect(await generateBranchSummary(entries, tool.model, { complete: tool.complete })).toEqual({
			error: "Branch summarization attempted to call a tool",
		});
		const aborted = fauxSummarizer([fauxAssistantMessage("x", { stopReason: "aborted" })]);
		expect(await generateBranchSummary(entries, aborted.model, { complete: aborted.complete })).toEqual({
			aborted: true,
		});
		const empty = await generateBranchSummary([], ok.model, { complete: ok.complete });
		expect(empty).toEqual({ summary: "No content to summarize", details: { readFiles: [], modifiedFiles: [] } });
	});

	it("uses the branch template with headings and appends custom focus", async () => {
		const { manager, b2, a3 } = tree();
		const { entries } = collectEntriesForBranchSummary(manager, b2, a3);
		const s = fauxSummarizer([fauxAssistantMessage("x")]);
		await generateBranchSummary(entries, s.model, { complete: s.complete, customInstructions: "tests" });
		const prompt = promptOf(s.requests[0]!);
		const order = SUMMARY_HEADINGS.map((h) => prompt.indexOf(h));
		expect(order.every((index, i) => index > 0 && (i === 0 || index > order[i - 1]!))).toBe(true);
		expect(prompt.endsWith("\n\nAdditional focus: tests")).toBe(true);
	});
});
