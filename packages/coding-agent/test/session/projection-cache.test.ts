import { appendFileSync, writeFileSync } from "node:fs";
import { buildSessionProjection, SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { nodeSessionFileSystem } from "../../src/core/session/index.js";
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

describe("session projection extended by appends on the leaf", () => {
	it("matches a fresh build after each append of every kind, compactions and context edits included", () => {
		const { manager, firstUser } = seeded();
		const appends: Array<() => unknown> = [
			() => manager.appendModelChange("faux", "faux-2"),
			() => manager.appendThinkingLevelChange("high"),
			() => manager.appendMessage(assistant("answer from the new model")),
			() => manager.appendCustomMessageEntry("note", "extension text", true),
			() => manager.appendCustomEntry("state", { n: 1 }),
			() => manager.appendSessionInfo("renamed"),
			() => manager.appendLabelChange(firstUser, "start"),
			() => manager.appendContextEdit(firstUser, { content: "edited" }),
			() => manager.appendMessage(user("after the edit")),
			() => manager.appendCompaction("compacted history", manager.getBranch().at(-2)!.id, 1234),
			() => manager.appendMessage(user("after the compaction")),
			() => manager.appendMessage(assistant("still going")),
			() => manager.appendThinkingLevelChange("low"),
		];
		for (const append of appends) expectCurrentAfter(manager, append);
		expect(manager.buildSessionProjection()).toMatchObject({
			thinkingLevel: "low",
			messages: [{ role: "compactionSummary" }, { role: "user" }, { role: "user" }, { role: "assistant" }],
		});
	});

	it("a read between two appends still sees both", () => {
		const { manager } = seeded();
		manager.buildSessionProjection();
		manager.appendMessage(user("three"));
		manager.appendMessage(assistant("third answer"));
		expect(manager.buildSessionProjection()).toEqual(fresh(manager));
		expect(manager.buildSessionProjection().messages).toHaveLength(6);
	});

	it("entries another process appended to the file do not join this branch", () => {
		const manager = SessionManager.create("/tmp/project", tempDir());
		const root = manager.appendMessage(user("one"));
		const leaf = manager.appendMessage(assistant("first answer"));
		const foreign = (id: string, parentId: string, text: string) =>
			`${JSON.stringify({
				type: "message",
				id,
				parentId,
				timestamp: new Date(0).toISOString(),
				message: user(text),
			})}\n`;
		expectCurrentAfter(manager, () => {
			appendFileSync(manager.getSessionFile()!, foreign("foreign1", leaf, "from elsewhere"));
			manager.appendMessage(user("ours"));
		});
		const texts = manager
			.buildSessionProjection()
			.messages.map((message) => (message as { content: unknown }).content);
		expect(texts).not.toContain("from elsewhere");
		// A foreign entry reusing an id on this branch replaces it for every later walk.
		expectCurrentAfter(manager, () => {
			appendFileSync(manager.getSessionFile()!, foreign(leaf, root, "replaced answer"));
			manager.appendMessage(user("ours again"));
		});
		expect(manager.getBranch().map((entry) => entry.id)).toEqual([
			root,
			leaf,
			expect.any(String),
			expect.any(String),
		]);
		expect(manager.buildSessionProjection().messages.map((message) => message.role)).toEqual([
			"user",
			"user",
			"user",
			"user",
		]);
		manager.dispose();
	});

	it("an absorbed entry that reuses the leaf's id replaces the branch instead of extending it", () => {
		let failWrites = false;
		const fileSystem = {
			...nodeSessionFileSystem,
			writeSync(fd: number, data: string) {
				if (failWrites) throw new Error("simulated ENOSPC");
				return nodeSessionFileSystem.writeSync(fd, data);
			},
		};
		const manager = SessionManager.create("/tmp/project", tempDir(), {}, { fileSystem });
		manager.appendMessage(user("one"));
		const leaf = manager.appendMessage(assistant("first answer"));
		manager.buildSessionProjection();
		// Another process wrote an entry with our leaf's id (a root, by its self link); our own append then fails.
		const line = {
			type: "message",
			id: leaf,
			parentId: leaf,
			timestamp: new Date(0).toISOString(),
			message: user("x"),
		};
		appendFileSync(manager.getSessionFile()!, `${JSON.stringify(line)}\n`);
		failWrites = true;
		expect(() => manager.appendMessage(user("refused"))).toThrow("simulated ENOSPC");
		expect(manager.getLeafId()).toBe(leaf);
		expect(manager.buildSessionProjection()).toEqual(fresh(manager));
		expect(manager.buildSessionProjection().messages).toMatchObject([{ role: "user", content: "x" }]);
		expect(manager.getBranch()).toHaveLength(1);
		manager.dispose();
	});
});
