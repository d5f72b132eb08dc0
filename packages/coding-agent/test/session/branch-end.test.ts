import { describe, expect, it } from "vitest";
import { branchHasContext, projectBranchTail } from "../../src/core/session/branch-end.js";
import { SessionManager } from "../../src/core/session/index.js";
import { assistant, toolCallAssistant, toolResult, user } from "./helpers.js";

// Each query reads the branch from its end only; each must answer what the full projection answers.
function expectSameAsProjection(manager: SessionManager): void {
	const branch = manager.getBranch();
	const projection = manager.buildSessionProjection();
	expect(branchHasContext(branch)).toBe(projection.messages.length > 0);
	for (const count of [1, 2, 3, 5, branch.length, branch.length + 3]) {
		const tail = projectBranchTail(branch, count);
		if (branch.slice(-count).some((entry) => entry.type === "compaction")) expect(tail).toBeUndefined();
		else expect(tail).toEqual(projection.messages.slice(projection.messages.length - tail!.length));
	}
}

describe("queries from a branch's end", () => {
	it("answer as the projection for an empty session and one with only settings", () => {
		const manager = SessionManager.inMemory("/work");
		expectSameAsProjection(manager);
		expect(branchHasContext(manager.getBranch())).toBe(false);
		manager.appendThinkingLevelChange("high");
		manager.appendModelChange("faux", "faux-2");
		expectSameAsProjection(manager);
		expect(branchHasContext(manager.getBranch())).toBe(false);
		manager.appendMessage(user("q1"));
		manager.appendMessage(assistant("a1", { provider: "other", model: "m-1" }));
		expectSameAsProjection(manager);
	});

	it("apply the latest context edit of an entry, including one that removes the only message", () => {
		const manager = SessionManager.inMemory("/work");
		const question = manager.appendMessage(user("q1"));
		expectSameAsProjection(manager);
		manager.appendContextEdit(question, { content: "rewritten" });
		expectSameAsProjection(manager);
		manager.appendContextEdit(question, null);
		expectSameAsProjection(manager);
		expect(branchHasContext(manager.getBranch())).toBe(false);
		manager.appendCustomMessageEntry("note", "shown", true);
		expectSameAsProjection(manager);
		expect(branchHasContext(manager.getBranch())).toBe(true);
	});

	it("match tool calls, results and custom messages, and refuse a tail holding a compaction", () => {
		const manager = SessionManager.inMemory("/work");
		const first = manager.appendMessage(user("q1"));
		manager.appendMessage(toolCallAssistant([{ id: "c1", name: "read", arguments: { path: "a" } }]));
		manager.appendMessage(toolResult("c1", "contents"));
		manager.appendMessage(assistant("a1"));
		manager.appendCustomMessageEntry("note", "hidden", false);
		expectSameAsProjection(manager);
		manager.appendCompaction("summary of q1", first, 1234);
		expectSameAsProjection(manager);
		expect(branchHasContext(manager.getBranch())).toBe(true);
		manager.appendMessage(user("q2"));
		manager.appendMessage(assistant("a2"));
		expectSameAsProjection(manager);
	});
});
