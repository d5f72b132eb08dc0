import { existsSync } from "node:fs";
import { SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { forkSession, getBranchSelection, navigateSessionTree } from "../../src/core/session/index.js";
import { assistant, tempDir, user } from "./helpers.js";

function conversation(manager: SessionManager) {
	const u1 = manager.appendMessage(user("first question"));
	const a1 = manager.appendMessage(assistant("first answer"));
	const u2 = manager.appendMessage(user("second question"));
	const a2 = manager.appendMessage(assistant("second answer"));
	return { u1, a1, u2, a2 };
}

describe("tree navigation leaf placement", () => {
	it("a user-message target puts the leaf on its parent and returns its text", () => {
		const manager = SessionManager.inMemory("/w");
		const { a1, u2, a2 } = conversation(manager);
		const result = navigateSessionTree(manager, u2);
		expect(result).toEqual({ oldLeafId: a2, newLeafId: a1, editorText: "second question" });
		expect(manager.getLeafId()).toBe(a1);
	});

	it("the first user message leads to a null leaf", () => {
		const manager = SessionManager.inMemory("/w");
		const { u1 } = conversation(manager);
		expect(navigateSessionTree(manager, u1).newLeafId).toBeNull();
		expect(manager.getLeafId()).toBeNull();
	});

	it("custom-message targets behave like user messages; other targets become the leaf", () => {
		const manager = SessionManager.inMemory("/w");
		const { a2 } = conversation(manager);
		const note = manager.appendCustomMessageEntry("note", [{ type: "text", text: "remember" }], true);
		manager.appendMessage(user("later"));
		expect(navigateSessionTree(manager, note)).toMatchObject({ newLeafId: a2, editorText: "remember" });
		expect(navigateSessionTree(manager, a2).newLeafId).toBe(a2);
		expect(() => navigateSessionTree(manager, "nope")).toThrow("Entry nope not found");
	});

	it("a summary is attached at the new leaf and a label goes on the summary", () => {
		const manager = SessionManager.inMemory("/w");
		const { a1, u2, a2 } = conversation(manager);
		const result = navigateSessionTree(manager, u2, {
			summary: { summary: "explored", details: { readFiles: [], modifiedFiles: [] } },
			label: "checkpoint",
		});
		const summary = manager.getEntry(result.summaryEntryId!)!;
		expect(summary).toMatchObject({ type: "branch_summary", parentId: a1, fromId: a2, summary: "explored" });
		expect(manager.getLabel(summary.id)).toBe("checkpoint");
		expect(manager.getLeafId()).toBe(result.newLeafId);
		expect(manager.getEntry(result.newLeafId!)).toMatchObject({ type: "label", targetId: summary.id });
	});

	it("without a summary a label goes on the target; fromId is root when there was no leaf", () => {
		const manager = SessionManager.inMemory("/w");
		const { a1 } = conversation(manager);
		navigateSessionTree(manager, a1, { label: "here" });
		expect(manager.getLabel(a1)).toBe("here");
		manager.resetLeaf();
		const result = navigateSessionTree(manager, a1, { summary: { summary: "s" } });
		expect(manager.getEntry(result.summaryEntryId!)).toMatchObject({ fromId: "root", parentId: a1 });
	});
});

describe("fork and clone", () => {
	it("fork before a user message extracts the path up to its parent into a new file", () => {
		const dir = tempDir();
		const manager = SessionManager.create("/w", dir);
		const { u1, a1, u2 } = conversation(manager);
		const { manager: fork, editorText } = forkSession(manager, u2, "before");
		expect(editorText).toBe("second question");
		expect(fork.getEntries().map((e) => e.id)).toEqual([u1, a1]);
		expect(fork.getHeader()!.parentSession).toBe(manager.getSessionFile());
		expect(existsSync(fork.getSessionFile()!)).toBe(true);
		expect(manager.getEntryCount()).toBe(4);
		fork.appendMessage(user("a different second question"));
		fork.dispose();
		manager.dispose();
	});

	it("fork at the first message creates an empty session naming its parent", () => {
		const dir = tempDir();
		const manager = SessionManager.create("/w", dir);
		const { u1 } = conversation(manager);
		const { manager: fork, editorText } = forkSession(manager, u1, "before");
		expect(editorText).toBe("first question");
		expect(fork.getEntries()).toEqual([]);
		expect(fork.getHeader()!.parentSession).toBe(manager.getSessionFile());
		manager.dispose();
	});

	it("clone copies the active branch; forking requires a user message and a saved session", () => {
		const manager = SessionManager.create("/w", tempDir());
		manager.appendModelChange("p", "m");
		const model = manager.getLeafId()!;
		expect(() => forkSession(manager, model, "at")).toThrow(
			"This session has not been saved yet. Send a message before cloning or forking it.",
		);
		const { a1, a2 } = conversation(manager);
		expect(() => forkSession(manager, a1, "before")).toThrow("Invalid entry ID for forking");
		const { manager: clone } = forkSession(manager, a2, "at");
		expect(clone.buildSessionContext()).toEqual(manager.buildSessionContext());
		clone.dispose();
		manager.dispose();
	});

	it("works on in-memory sessions", () => {
		const manager = SessionManager.inMemory("/w");
		const { u1, a1, u2 } = conversation(manager);
		const { manager: fork } = forkSession(manager, u2, "before");
		expect(fork.getEntries().map((e) => e.id)).toEqual([u1, a1]);
		expect(fork.getSessionFile()).toBeUndefined();
	});
});

describe("model selection from a branch", () => {
	it("prefers the newest model_change, else the assistant model unless a virtual model routed it", () => {
		const manager = SessionManager.inMemory("/w");
		const virtual = (provider: string) => provider === "router";
		expect(getBranchSelection(manager.getBranch(), virtual)).toBeUndefined();
		manager.appendModelChange("router", "auto");
		manager.appendMessage(user("q"));
		manager.appendMessage(assistant("a", { provider: "anthropic", model: "sonnet" }));
		expect(getBranchSelection(manager.getBranch(), virtual)).toEqual({ provider: "router", modelId: "auto" });
		expect(getBranchSelection(manager.getBranch(), () => false)).toEqual({
			provider: "anthropic",
			modelId: "sonnet",
		});
		manager.appendModelChange("openai", "gpt-5");
		expect(getBranchSelection(manager.getBranch(), virtual)).toEqual({ provider: "openai", modelId: "gpt-5" });
	});
});
