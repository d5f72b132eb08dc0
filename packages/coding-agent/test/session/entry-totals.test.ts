import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Usage } from "@tau/ai";
import { type SessionEntry, SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { assistant, tempDir, toolCallAssistant, toolResult, usage, user } from "./helpers.js";

/** The totals the footer and `/session` show, computed the slow way: filters over every entry. */
function walkedTotals(entries: readonly SessionEntry[]) {
	const messages = entries.flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
	const spent = entries.flatMap((entry): Usage[] => {
		if (entry.type === "compaction" || entry.type === "branch_summary" || entry.type === "usage")
			return entry.usage ? [entry.usage] : [];
		if (entry.type !== "message") return [];
		const message = entry.message;
		return (message.role === "assistant" || message.role === "toolResult") && message.usage ? [message.usage] : [];
	});
	const sum = (of: (usage: Usage) => number) => spent.reduce((total, usage) => total + of(usage), 0);
	const withRole = (role: string) => messages.filter((message) => message.role === role);
	return {
		userMessages: withRole("user").length,
		assistantMessages: withRole("assistant").length,
		toolCalls: messages
			.flatMap((message) => (message.role === "assistant" ? message.content : []))
			.filter((part) => part.type === "toolCall").length,
		toolResults: withRole("toolResult").length,
		totalMessages: messages.length,
		tokens: {
			input: sum((usage) => usage.input),
			output: sum((usage) => usage.output),
			cacheRead: sum((usage) => usage.cacheRead),
			cacheWrite: sum((usage) => usage.cacheWrite),
			total: sum((usage) => usage.totalTokens),
		},
		cost: sum((usage) => usage.cost.total),
	};
}

function priced(input: number, output: number, cost: number): Usage {
	return { ...usage(input, output), cacheRead: 3, cacheWrite: 1, cost: { ...usage(0, 0).cost, total: cost } };
}

/** A session with two branches, tool calls, a usage record and a branch summary. */
function busySession(dir: string): SessionManager {
	const manager = SessionManager.create("/w", dir);
	const first = manager.appendMessage(user("one"));
	manager.appendMessage(
		toolCallAssistant([{ id: "c1", name: "read", arguments: { path: "a" } }], { usage: priced(10, 5, 0.5) }),
	);
	manager.appendMessage({ ...toolResult("c1", "text"), usage: priced(2, 0, 0.01) } as never);
	manager.appendMessage(assistant("done", { usage: priced(20, 7, 0.25) }));
	manager.appendUsage("summary", "faux", "faux-1", priced(40, 4, 0.125));
	manager.branchWithSummary(first, "the other way", undefined, undefined, priced(8, 2, 0.0625));
	manager.appendMessage(assistant("elsewhere", { usage: priced(1, 1, 1) }));
	return manager;
}

describe("session totals kept while indexing", () => {
	it("equal a walk over every entry (all branches), after appends and after reopening the file", () => {
		const manager = busySession(tempDir());
		const expected = walkedTotals(manager.getEntries());
		expect(expected).toMatchObject({ userMessages: 1, assistantMessages: 3, toolCalls: 1, toolResults: 1 });
		expect(manager.getEntryTotals()).toEqual(expected);

		const reopened = SessionManager.open(manager.getSessionFile()!);
		manager.dispose();
		expect(reopened.getEntryTotals()).toEqual(expected);
		reopened.dispose();
	});

	it("follow a branched-off session and a new session", () => {
		const manager = busySession(tempDir());
		// The first branch: user, tool call, its result and the answer "done".
		const done = manager
			.getEntries()
			.find(
				(entry) =>
					entry.type === "message" &&
					entry.message.role === "assistant" &&
					entry.message.content[0]?.type === "text" &&
					entry.message.content[0].text === "done",
			);
		manager.createBranchedSession(done!.id);
		expect(manager.getEntryTotals()).toEqual(walkedTotals(manager.getEntries()));
		expect(manager.getEntryTotals()).toMatchObject({ assistantMessages: 2, toolResults: 1, userMessages: 1 });

		manager.newSession();
		expect(manager.getEntryTotals()).toEqual(walkedTotals([]));
		manager.dispose();
	});

	it("count entries another program appended before the next append", () => {
		const manager = busySession(tempDir());
		const file = manager.getSessionFile()!;
		const foreign = {
			type: "message",
			id: "f0000001",
			parentId: manager.getLeafId(),
			timestamp: new Date().toISOString(),
			message: assistant("from pi", { usage: priced(100, 50, 2) }),
		};
		appendFileSync(file, `${JSON.stringify(foreign)}\n`);
		manager.appendMessage(user("mine"));
		expect(manager.getEntryTotals()).toEqual(walkedTotals(manager.getEntries()));
		expect(manager.getEntryTotals().cost).toBe(walkedTotals(manager.getEntries()).cost);
		manager.dispose();
	});

	it("are a copy the caller cannot use to change the session's figures", () => {
		const manager = busySession(tempDir());
		const totals = manager.getEntryTotals();
		totals.tokens.input = -1;
		totals.userMessages = -1;
		expect(manager.getEntryTotals()).toEqual(walkedTotals(manager.getEntries()));
		manager.dispose();
	});

	it("a hand-edited message entry without a message still opens, counted as a message", () => {
		const dir = tempDir();
		const file = join(dir, "edited.jsonl");
		const lines = [
			{ type: "session", version: 3, id: "edited", timestamp: new Date(0).toISOString(), cwd: "/w" },
			{ type: "message", id: "a1", parentId: null, timestamp: new Date(1).toISOString() },
			{ type: "message", id: "a2", parentId: "a1", timestamp: new Date(2).toISOString(), message: user("hi") },
		];
		writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
		const manager = SessionManager.open(file);
		expect(manager.getEntryTotals()).toMatchObject({ totalMessages: 2, userMessages: 1, assistantMessages: 0 });
		manager.dispose();
	});
});
