import { writeFileSync } from "node:fs";
import { buildSessionProjection, SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { assistant, tempDir, user } from "./helpers.js";

/** What a projection built from scratch (no manager state reused) says for the manager's current tree. */
function fresh(manager: SessionManager) {
	return buildSessionProjection(manager.getEntries(), manager.getLeafId());
}

/** Reads the projection and the branch (filling any cache), mutates, then compares with a fresh build. */
function expectCurrentAfter(manager: SessionManager, mutate: () => void): void {
	manager.buildSessionProjection();
	manager.getBranch();
	mutate();
	expect(manager.buildSessionProjection()).toEqual(fresh(manager));
	expect(manager.getBranch().map((entry) => entry.id)).toEqual(pathIds(manager));
}

/** Leaf-to-root parent links followed by hand, root first. */
function pathIds(manager: SessionManager): string[] {
	const ids: string[] = [];
	let entry = manager.getLeafEntry();
	while (entry) {
		ids.unshift(entry.id);
		entry = entry.parentId === null ? undefined : manager.getEntry(entry.parentId);
	}
	return ids;
}

function seeded(): { manager: SessionManager; firstUser: string; firstAnswer: string } {
	const manager = SessionManager.inMemory("/tmp/project");
	const firstUser = manager.appendMessage(user("one"));
	const firstAnswer = manager.appendMessage(assistant("first answer"));
	manager.appendMessage(user("two"));
	manager.appendMessage(assistant("second answer"));
	return { manager, firstUser, firstAnswer };
}

describe("session projection reuse between mutations", () => {
	it("repeated reads without a mutation give equal projections and branches", () => {
		const { manager } = seeded();
		expect(manager.buildSessionProjection()).toEqual(manager.buildSessionProjection());
		expect(manager.buildSessionProjection()).toEqual(fresh(manager));
		expect(manager.getBranch()).toEqual(manager.getBranch());
	});

	it("an appended message shows up", () => {
		const { manager } = seeded();
		expectCurrentAfter(manager, () => manager.appendMessage(user("three")));
		expect(manager.buildSessionProjection().messages.at(-1)).toMatchObject({ role: "user", content: "three" });
	});

	it("moving the leaf (branch, reset, branch with summary) shows the other path", () => {
		const { manager, firstAnswer } = seeded();
		expectCurrentAfter(manager, () => manager.branch(firstAnswer));
		expect(manager.buildSessionProjection().messages).toHaveLength(2);
		expectCurrentAfter(manager, () => manager.appendMessage(user("sibling")));
		expectCurrentAfter(manager, () => manager.resetLeaf());
		expect(manager.buildSessionProjection().messages).toEqual([]);
		expectCurrentAfter(manager, () => manager.branchWithSummary(firstAnswer, "summary of the abandoned path"));
		expect(manager.buildSessionProjection().messages.at(-1)).toMatchObject({ role: "branchSummary" });
	});

	it("a context edit replaces the edited content", () => {
		const { manager, firstUser } = seeded();
		expectCurrentAfter(manager, () => manager.appendContextEdit(firstUser, { content: "edited" }));
		expect(manager.buildSessionProjection().messages[0]).toMatchObject({ role: "user", content: "edited" });
		expectCurrentAfter(manager, () => manager.appendContextEdit(firstUser, null));
		expect(manager.buildSessionProjection().messages[0]).toMatchObject({ role: "assistant" });
	});

	it("a label and a compaction are reflected", () => {
		const { manager, firstAnswer } = seeded();
		expectCurrentAfter(manager, () => manager.appendLabelChange(firstAnswer, "checkpoint"));
		const kept = manager.getBranch().at(-2)!.id;
		expectCurrentAfter(manager, () => manager.appendCompaction("compacted history", kept, 1234));
		expect(manager.buildSessionProjection().messages[0]).toMatchObject({ role: "compactionSummary" });
	});

	it("switching to a new or branched session starts from its own tree", () => {
		const { manager, firstAnswer } = seeded();
		expectCurrentAfter(manager, () => manager.createBranchedSession(firstAnswer));
		expect(manager.buildSessionProjection().messages).toHaveLength(2);
		expectCurrentAfter(manager, () => manager.newSession());
		expect(manager.buildSessionProjection().messages).toEqual([]);
	});

	it("a failed append leaves the previous projection", () => {
		const manager = SessionManager.create("/tmp/project", tempDir());
		manager.appendModelChange("faux", "faux-1");
		const before = manager.buildSessionProjection();
		manager.getBranch();
		// Someone else's file at the path makes the first flush fail and the append roll back.
		writeFileSync(manager.getSessionFile()!, "someone else's file\n");
		expect(() => manager.appendMessage(user("refused"))).toThrow("Session file already exists");
		expect(manager.buildSessionProjection()).toEqual(before);
		expect(manager.buildSessionProjection()).toEqual(fresh(manager));
		expect(manager.getBranch()).toHaveLength(1);
		manager.dispose();
	});

	it("changing a returned projection or branch does not change later reads", () => {
		const { manager } = seeded();
		const first = manager.buildSessionProjection();
		first.messages.push(user("caller-owned"));
		first.entries.pop();
		manager.getBranch().pop();
		expect(manager.buildSessionProjection()).toEqual(fresh(manager));
		expect(manager.getBranch()).toHaveLength(4);
	});
});
