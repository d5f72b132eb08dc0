import { readFileSync } from "node:fs";
import { SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { assistant, tempDir, user } from "./helpers.js";

describe("tree and leaf semantics", () => {
	it("navigation is not durable until the next append", () => {
		const manager = SessionManager.create("/w", tempDir());
		const root = manager.appendMessage(user("root"));
		const old = manager.appendMessage(assistant("old branch"));
		manager.branch(root);
		manager.dispose();
		const reopened = SessionManager.open(manager.getSessionFile()!);
		expect(reopened.getLeafId()).toBe(old);
		reopened.branch(root);
		const fresh = reopened.appendMessage(assistant("new branch"));
		reopened.dispose();
		const again = SessionManager.open(manager.getSessionFile()!);
		expect(again.getLeafId()).toBe(fresh);
		expect(again.getBranch().map((e) => e.id)).toEqual([root, fresh]);
		again.dispose();
	});

	it("labels are tree entries: they advance the leaf, clearing omits the key, the last one wins", () => {
		const manager = SessionManager.create("/w", tempDir());
		const a = manager.appendMessage(user("a"));
		const set = manager.appendLabelChange(a, "first");
		expect(manager.getLeafId()).toBe(set);
		expect(manager.getLabel(a)).toBe("first");
		manager.appendLabelChange(a, "second");
		expect(manager.getLabel(a)).toBe("second");
		const clear = manager.appendLabelChange(a);
		expect(manager.getLabel(a)).toBeUndefined();
		const line = readFileSync(manager.getSessionFile()!, "utf8")
			.split("\n")
			.find((l) => l.includes(clear))!;
		expect("label" in JSON.parse(line)).toBe(false);
		expect(() => manager.appendLabelChange("nope", "x")).toThrow("Entry nope not found");
		manager.dispose();
	});

	it("resetLeaf makes the next append a second root", () => {
		const manager = SessionManager.inMemory("/w");
		const a = manager.appendMessage(user("a"));
		manager.resetLeaf();
		expect(manager.getBranch()).toEqual([]);
		const second = manager.appendMessage(user("second root"));
		expect(manager.getEntry(second)!.parentId).toBeNull();
		expect(manager.getTree().map((n) => n.entry.id)).toEqual([a, second]);
	});

	it("getTree lists every root and sorts children by timestamp, not file order", () => {
		const entry = (id: string, parentId: string | null, second: number) =>
			({ type: "custom", customType: "t", id, parentId, timestamp: `2026-01-01T00:00:0${second}.000Z` }) as const;
		const manager = SessionManager.inMemory("/w", {}, [
			entry("root", null, 1),
			entry("late", "root", 5),
			entry("early", "root", 2),
			entry("orphan", "gone", 3),
			entry("self", "self", 4),
		]);
		const tree = manager.getTree();
		expect(tree.map((n) => n.entry.id)).toEqual(["root", "orphan", "self"]);
		expect(tree[0]!.children.map((n) => n.entry.id)).toEqual(["early", "late"]);
	});

	it("getBranch of an unknown id is empty; branch to an unknown id throws", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user("a"));
		expect(manager.getBranch("missing")).toEqual([]);
		expect(() => manager.branch("missing")).toThrow("Entry missing not found");
	});

	it("getSessionName follows the last session_info in file order; empty clears; newlines collapse", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendSessionInfo("  first\r\n\nname  ");
		expect(manager.getSessionName()).toBe("first name");
		const a = manager.appendMessage(user("a"));
		manager.appendSessionInfo("second");
		manager.branch(a);
		expect(manager.getSessionName()).toBe("second");
		manager.appendSessionInfo("   ");
		expect(manager.getSessionName()).toBeUndefined();
	});

	it("getTree is iterative: a 20,000-deep chain does not overflow", () => {
		const manager = SessionManager.inMemory("/w");
		for (let i = 0; i < 20_000; i++) manager.appendCustomEntry("tick");
		let depth = 0;
		let node = manager.getTree()[0];
		while (node) {
			depth++;
			node = node.children[0];
		}
		expect(depth).toBe(20_000);
	});

	it("branchWithSummary records the old leaf (or root) and hangs the summary at the target", () => {
		const manager = SessionManager.inMemory("/w");
		const a = manager.appendMessage(user("a"));
		const b = manager.appendMessage(assistant("b"));
		const summary = manager.branchWithSummary(a, "explored b");
		expect(manager.getEntry(summary)).toMatchObject({ type: "branch_summary", parentId: a, fromId: b });
		manager.resetLeaf();
		const rootSummary = manager.branchWithSummary(null, "fresh start");
		expect(manager.getEntry(rootSummary)).toMatchObject({ parentId: null, fromId: "root" });
		expect(() => manager.branchWithSummary("missing", "x")).toThrow("Entry missing not found");
		expect(manager.getLeafId()).toBe(rootSummary);
	});
});
