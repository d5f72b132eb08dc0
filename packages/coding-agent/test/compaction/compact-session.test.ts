import { fauxAssistantMessage } from "@tau/ai";
import { SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { compactSession, omitFailedAttempt } from "../../src/core/compaction/index.js";
import { assistant, toolCallAssistant, toolResult, user } from "../session/helpers.js";
import { fauxSummarizer, sized } from "./helpers.js";

const settings = { enabled: true, reserveTokens: 1000, keepRecentTokens: 150 };

function longSession(): SessionManager {
	const manager = SessionManager.inMemory("/w");
	manager.appendMessage({
		role: "system",
		content: "You are tau.",
		sections: { env: "<env>linux</env>" },
		timestamp: 1,
	});
	manager.appendMessage(user(sized(200)));
	manager.appendMessage(assistant(sized(200)));
	manager.appendMessage(user(sized(200)));
	return manager;
}

describe("compactSession", () => {
	it("appends a compaction with the system checkpoint; the projection restarts from it", async () => {
		const manager = longSession();
		const { model, complete } = fauxSummarizer([fauxAssistantMessage("## Goal\nship")]);
		const entry = await compactSession(manager, { model, settings, complete });
		expect(entry).toMatchObject({
			type: "compaction",
			summary: "## Goal\nship",
			details: { readFiles: [], modifiedFiles: [] },
		});
		expect(entry.fromHook).toBeUndefined();
		expect(entry.systemMessage).toMatchObject({ content: "You are tau.", sections: { env: "<env>linux</env>" } });
		const roles = manager.buildSessionContext().messages.map((m) => m.role);
		expect(roles).toEqual(["system", "compactionSummary", "user"]);
		await expect(compactSession(manager, { model, settings, complete })).rejects.toThrow("Already compacted");
	});

	it("manual compaction works even when automatic compaction is disabled", async () => {
		const manager = longSession();
		const { model, complete } = fauxSummarizer([fauxAssistantMessage("manual")]);
		const entry = await compactSession(manager, { model, settings: { ...settings, enabled: false }, complete });
		expect(entry.summary).toBe("manual");
	});

	it("refuses a session too small to compact", async () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user("hi"));
		const { model, complete } = fauxSummarizer([]);
		await expect(compactSession(manager, { model, settings, complete })).rejects.toThrow(
			"Nothing to compact (session too small)",
		);
	});

	it("an extension-provided result is stored with fromHook: true and no LLM call", async () => {
		const manager = longSession();
		const { model, complete, requests } = fauxSummarizer([]);
		const entry = await compactSession(manager, {
			model,
			settings,
			complete,
			provideResult: async (prep) => ({
				summary: "from extension",
				firstKeptEntryId: prep.firstKeptEntryId,
				tokensBefore: prep.tokensBefore,
				details: { readFiles: [], modifiedFiles: [] },
			}),
		});
		expect(entry).toMatchObject({ summary: "from extension", fromHook: true });
		expect(requests).toHaveLength(0);
	});

	it("a rejected summary appends nothing", async () => {
		const manager = longSession();
		const count = manager.getEntryCount();
		const { model, complete } = fauxSummarizer([
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "boom" }),
		]);
		await expect(compactSession(manager, { model, settings, complete })).rejects.toThrow(
			"Summarization failed: boom",
		);
		expect(manager.getEntryCount()).toBe(count);
	});
});

describe("omitting a failed attempt", () => {
	it("hides the failed assistant and the results of its own tool calls only", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user("q"));
		const failed = manager.appendMessage(
			toolCallAssistant(
				[
					{ id: "c1", name: "read", arguments: { path: "a" } },
					{ id: "c2", name: "read", arguments: { path: "b" } },
				],
				{ stopReason: "error", errorMessage: "prompt is too long" },
			),
		);
		const r1 = manager.appendMessage(toolResult("c1", "a"));
		const stray = manager.appendMessage(toolResult("other", "not ours"));
		const r2 = manager.appendMessage(toolResult("c2", "b"));
		manager.appendMessage(assistant("next attempt"));
		const edits = omitFailedAttempt(manager, failed);
		expect(edits.map((id) => (manager.getEntry(id) as { targetId: string }).targetId)).toEqual([failed, r1, r2]);
		const ids = manager
			.buildSessionProjection()
			.entries.filter((e) => e.messages.length > 0)
			.map((e) => e.sourceEntry.id);
		expect(ids).toContain(stray);
		expect(ids).not.toContain(failed);
		expect(manager.getEntry(failed)).toBeDefined();
		expect(() => omitFailedAttempt(manager, r1)).toThrow(/not an assistant message/);
	});
});
