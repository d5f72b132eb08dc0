import { prepareCompaction, SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { computeFileLists, findProjectedCutPoint, formatFileLists } from "../../src/core/compaction/index.js";
import { assistant, toolCallAssistant, toolResult, usage, user } from "../session/helpers.js";
import { sized } from "./helpers.js";

const settings = (keepRecentTokens: number) => ({ enabled: true, reserveTokens: 1000, keepRecentTokens });

function prepare(manager: SessionManager, keep: number) {
	return prepareCompaction(manager.getBranch(), settings(keep));
}

describe("cut points and preparation", () => {
	it("cuts at a turn start, summarizing what came before", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user(sized(100)));
		manager.appendMessage(assistant(sized(100)));
		const second = manager.appendMessage(user(sized(100)));
		manager.appendMessage(assistant(sized(100), { usage: usage(0, 0) }));
		const prep = prepare(manager, 150)!;
		expect(prep.firstKeptEntryId).toBe(second);
		expect(prep.isSplitTurn).toBe(false);
		expect(prep.messagesToSummarize.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect(prep.turnPrefixMessages).toEqual([]);
		// The first answer reported 15 tokens of usage; the two later messages are estimated.
		expect(prep.tokensBefore).toBe(15 + 100 + 100);
	});

	it("never cuts at a tool result: an oversized final tool result keeps its tool call", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user(sized(10)));
		const call = manager.appendMessage(
			toolCallAssistant([{ id: "c1", name: "read", arguments: { path: "big.txt" } }]),
		);
		manager.appendMessage(toolResult("c1", sized(5000)));
		const prep = prepare(manager, 1000)!;
		expect(prep.firstKeptEntryId).toBe(call);
		expect(prep.isSplitTurn).toBe(true);
		expect(prep.turnPrefixMessages.map((m) => m.role)).toEqual(["user"]);
		expect(prep.messagesToSummarize).toEqual([]);
	});

	it("split turn: prefix messages run from the turn start to the cut", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user(sized(50)));
		manager.appendMessage(assistant(sized(50)));
		manager.appendMessage(user(sized(10)));
		manager.appendMessage(toolCallAssistant([{ id: "a", name: "read", arguments: { path: "a" } }]));
		manager.appendMessage(toolResult("a", sized(300)));
		const kept = manager.appendMessage(toolCallAssistant([{ id: "b", name: "edit", arguments: { path: "b" } }]));
		manager.appendMessage(toolResult("b", sized(300)));
		const prep = prepare(manager, 250)!;
		expect(prep.firstKeptEntryId).toBe(kept);
		expect(prep.isSplitTurn).toBe(true);
		expect(prep.messagesToSummarize.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect(prep.turnPrefixMessages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
	});

	it("absorbs adjacent metadata into the kept range", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user(sized(100)));
		manager.appendMessage(assistant(sized(100)));
		const model = manager.appendModelChange("p", "m");
		manager.appendThinkingLevelChange("high");
		manager.appendMessage(user(sized(100)));
		const prep = prepare(manager, 80)!;
		expect(prep.firstKeptEntryId).toBe(model);
	});

	it("returns nothing when the branch ends with a compaction or everything fits", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user(sized(10)));
		expect(prepare(manager, 1000)).toBeUndefined();
		manager.appendCompaction("s", null, 10);
		expect(prepare(manager, 1)).toBeUndefined();
	});

	it("repeated compaction re-summarizes the previous kept tail with previousSummary", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user(sized(100)));
		const keptBefore = manager.appendMessage(user(sized(100)));
		manager.appendMessage(assistant(sized(100)));
		manager.appendCompaction("first summary", keptBefore, 300, { readFiles: ["old.ts"], modifiedFiles: ["mod.ts"] });
		manager.appendMessage(user(sized(100)));
		const last = manager.appendMessage(user(sized(100)));
		const prep = prepare(manager, 90)!;
		expect(prep.previousSummary).toBe("first summary");
		expect(prep.firstKeptEntryId).toBe(last);
		expect(prep.messagesToSummarize.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
		expect([...prep.fileOps.read]).toEqual(["old.ts"]);
		expect([...prep.fileOps.edited]).toEqual(["mod.ts"]);
	});

	it("does not carry file lists from an extension-provided compaction", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user(sized(100)));
		manager.appendCompaction("ext", null, 100, { readFiles: ["x.ts"], modifiedFiles: [] }, true);
		manager.appendMessage(user(sized(100)));
		manager.appendMessage(user(sized(100)));
		const prep = prepare(manager, 90)!;
		expect(prep.fileOps.read.size).toBe(0);
	});

	it("collects file operations from tool calls and nested codemode calls", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user(sized(10)));
		manager.appendMessage(
			toolCallAssistant([
				{ id: "1", name: "read", arguments: { path: "b.ts" } },
				{ id: "2", name: "read", arguments: { path: "a.ts" } },
				{ id: "3", name: "write", arguments: { path: "w.ts" } },
				{ id: "4", name: "bash", arguments: { command: "ls" } },
			]),
		);
		manager.appendMessage({
			...toolResult("4", "ok", "codemode"),
			nestedCalls: {
				complete: true,
				calls: [
					{ id: "n1", name: "edit", arguments: { path: "a.ts" }, status: "ok" },
					{ id: "n2", name: "read", arguments: { path: "n.ts" }, status: "ok" },
				],
			},
		});
		manager.appendMessage(user(sized(500)));
		const prep = prepare(manager, 100)!;
		expect([...prep.fileOps.read].sort()).toEqual(["a.ts", "b.ts", "n.ts"]);
		expect([...prep.fileOps.written]).toEqual(["w.ts"]);
		expect([...prep.fileOps.edited]).toEqual(["a.ts"]);
	});
});

describe("recovery-omission advancement", () => {
	function failedAttempt(manager: SessionManager) {
		const input = manager.appendMessage(user(sized(500)));
		const failed = manager.appendMessage(
			toolCallAssistant([{ id: "f", name: "read", arguments: { path: "x" } }], { stopReason: "error" }),
		);
		const result = manager.appendMessage(toolResult("f", sized(10)));
		manager.appendContextEdit(failed, null);
		manager.appendContextEdit(result, null);
		return { input, failed };
	}

	it("moves the cut past the over-budget input when only an omitted attempt follows", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user(sized(100)));
		manager.appendMessage(assistant(sized(100)));
		const { failed } = failedAttempt(manager);
		const prep = prepare(manager, 300)!;
		expect(prep.firstKeptEntryId).toBe(failed);
		expect(prep.isSplitTurn).toBe(true);
		expect(prep.turnPrefixMessages.map((m) => m.role)).toEqual(["user"]);
	});

	it("a replacement edit in the suffix prevents it", () => {
		const manager = SessionManager.inMemory("/w");
		const early = manager.appendMessage(user(sized(100)));
		manager.appendMessage(assistant(sized(100)));
		const { input } = failedAttempt(manager);
		manager.appendContextEdit(early, { content: "shorter" });
		const prep = prepare(manager, 300)!;
		expect(prep.firstKeptEntryId).toBe(input);
	});

	it("plain metadata or a visible custom message does not move the cut", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user(sized(100)));
		manager.appendMessage(assistant(sized(100)));
		const input = manager.appendMessage(user(sized(500)));
		manager.appendModelChange("p", "m");
		manager.appendCustomEntry("state");
		expect(prepare(manager, 300)!.firstKeptEntryId).toBe(input);
		manager.appendCustomMessageEntry("note", "hi", true);
		expect(prepare(manager, 300)!.firstKeptEntryId).toBe(input);
	});

	it("findProjectedCutPoint with no cut points keeps everything from start", () => {
		expect(findProjectedCutPoint([], 0, 0, 10)).toEqual({
			firstKeptIndex: 0,
			turnStartIndex: -1,
			isSplitTurn: false,
		});
	});
});

describe("file lists", () => {
	it("a file both read and modified is listed as modified only; both lists sorted", () => {
		const lists = computeFileLists({
			read: new Set(["z.ts", "a.ts", "both.ts"]),
			written: new Set(["w.ts"]),
			edited: new Set(["both.ts", "b.ts"]),
		});
		expect(lists).toEqual({ readFiles: ["a.ts", "z.ts"], modifiedFiles: ["b.ts", "both.ts", "w.ts"] });
		expect(formatFileLists(lists)).toBe(
			"\n\n<read-files>\na.ts\nz.ts\n</read-files>\n\n<modified-files>\nb.ts\nboth.ts\nw.ts\n</modified-files>",
		);
		expect(formatFileLists({ readFiles: [], modifiedFiles: [] })).toBe("");
	});
});
