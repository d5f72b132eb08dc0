import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import { compact, convertToLlm, prepareCompaction, SessionManager, serializeConversation } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { type SummaryCompletion, summaryMaxTokens } from "../../src/core/compaction/index.js";
import { assistant, toolCallAssistant, toolResult, usage, user } from "../session/helpers.js";
import { fauxSummarizer, promptOf, SUMMARY_HEADINGS, sized } from "./helpers.js";

const settings = { enabled: true, reserveTokens: 1000, keepRecentTokens: 150 };

function twoTurnSession(): SessionManager {
	const manager = SessionManager.inMemory("/w");
	manager.appendThinkingLevelChange("high");
	manager.appendMessage(user(`please read ${sized(100)}`));
	manager.appendMessage(toolCallAssistant([{ id: "r", name: "read", arguments: { path: "src/a.ts" } }]));
	manager.appendMessage(toolResult("r", "file body"));
	manager.appendMessage(assistant(sized(100)));
	manager.appendMessage(user(sized(200)));
	return manager;
}

describe("compaction summaries", () => {
	it("sends the documented request and appends file lists to the summary", async () => {
		const manager = twoTurnSession();
		const prep = prepareCompaction(manager.getBranch(), settings)!;
		const { model, complete, requests } = fauxSummarizer([fauxAssistantMessage("## Goal\nRead files")], {
			id: "thinker",
			reasoning: true,
		});
		const result = await compact(prep, model, {
			complete,
			thinkingLevel: "high",
			customInstructions: "focus on a.ts",
		});
		expect(result.summary).toBe("## Goal\nRead files\n\n<read-files>\nsrc/a.ts\n</read-files>");
		expect(result.details).toEqual({ readFiles: ["src/a.ts"], modifiedFiles: [] });
		expect(result.firstKeptEntryId).toBe(prep.firstKeptEntryId);
		expect(requests).toHaveLength(1);
		const [request] = requests;
		expect(request!.options).toMatchObject({ cacheRetention: "none", reasoning: "high", maxTokens: model.maxTokens });
		expect(request!.options!.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
		expect(request!.context.systemPrompt).toMatch(/summarization assistant/);
		const prompt = promptOf(request!);
		expect(prompt.startsWith("<conversation>\n[User]: please read")).toBe(true);
		expect(prompt).toContain('[Assistant tool calls]: read(path="src/a.ts")');
		expect(prompt).toContain("[Tool result]: file body");
		expect(prompt).not.toContain("<previous-summary>");
		for (const heading of [...SUMMARY_HEADINGS, "## Critical Context"]) {
			expect(prompt).toContain(heading);
		}
		expect(prompt.endsWith("\n\nAdditional focus: focus on a.ts")).toBe(true);

		manager.appendCompaction(
			result.summary,
			result.firstKeptEntryId,
			result.tokensBefore,
			result.details,
			false,
			result.usage,
		);
		expect(manager.buildSessionContext().messages[0]).toMatchObject({
			role: "compactionSummary",
			summary: result.summary,
		});
	});

	it("uses update mode with the previous summary, and no reasoning when the model lacks it or the level is off", async () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user(sized(100)));
		const kept = manager.appendMessage(user(sized(100)));
		manager.appendCompaction("previous checkpoint", kept, 100);
		manager.appendMessage(user(sized(100)));
		manager.appendMessage(user(sized(200)));
		const prep = prepareCompaction(manager.getBranch(), settings)!;
		const { model, complete, requests } = fauxSummarizer([
			fauxAssistantMessage("updated"),
			fauxAssistantMessage("again"),
		]);
		await compact(prep, model, { complete, thinkingLevel: "high" });
		expect(requests[0]!.options!.reasoning).toBeUndefined();
		const prompt = promptOf(requests[0]!);
		expect(prompt).toContain("</conversation>\n\n<previous-summary>\nprevious checkpoint\n</previous-summary>\n\n");
		expect(prompt).toContain("Move items that are now finished");

		const reasoning = fauxSummarizer([fauxAssistantMessage("x")], { id: "r", reasoning: true });
		await compact(prep, reasoning.model, {
			complete: reasoning.complete,
			thinkingLevel: "off",
			sessionId: "route-1",
		});
		expect(reasoning.requests[0]!.options!.reasoning).toBeUndefined();
		expect(reasoning.requests[0]!.options!.sessionId).toBe("route-1");

		const small = fauxSummarizer([fauxAssistantMessage("y")], {
			id: "small",
			contextWindow: 40000,
			maxTokens: 64000,
		});
		await compact(prep, small.model, { complete: small.complete });
		// Every summary without a caller routing id gets a fresh one.
		expect(small.requests[0]!.options!.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
		expect(small.requests[0]!.options!.sessionId).not.toBe(requests[0]!.options!.sessionId);
		const sent = small.requests[0]!;
		const input = Math.ceil((sent.context.systemPrompt!.length + promptOf(sent).length) / 4);
		expect(sent.options!.maxTokens).toBe(40000 - input - Math.max(4096, Math.ceil(0.15 * input)));
	});

	it("split turn: two calls, joined with the Turn Context heading and combined usage", async () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user(sized(50)));
		manager.appendMessage(user(sized(10)));
		manager.appendMessage(toolCallAssistant([{ id: "a", name: "edit", arguments: { path: "x.ts" } }]));
		manager.appendMessage(toolResult("a", sized(300)));
		manager.appendMessage(toolCallAssistant([{ id: "b", name: "read", arguments: { path: "y.ts" } }]));
		manager.appendMessage(toolResult("b", sized(300)));
		const prep = prepareCompaction(manager.getBranch(), { ...settings, keepRecentTokens: 250 })!;
		expect(prep.isSplitTurn).toBe(true);
		const { model, requests } = fauxSummarizer([]);
		const responses = [
			{ ...fauxAssistantMessage("history text"), usage: usage(100, 10) },
			{ ...fauxAssistantMessage("prefix text"), usage: usage(50, 5) },
		];
		const complete: SummaryCompletion = async (m, context, options) => {
			requests.push({ model: m, context, options });
			return responses.shift()!;
		};
		const result = await compact(prep, model, { complete });
		expect(result.summary).toBe(
			"history text\n\n---\n\n**Turn Context (split turn):**\n\nprefix text\n\n<modified-files>\nx.ts\n</modified-files>",
		);
		expect(result.usage).toMatchObject({ input: 150, output: 15, totalTokens: 165 });
		expect(promptOf(requests[1]!)).toMatch(
			/^# Conversation\n\[User\]: x+\n\n\[Assistant tool calls\]: edit\(path="x.ts"\)[\s\S]*# Instructions\n[\s\S]*## Original Request[\s\S]*## Progress So Far[\s\S]*## Context Needed to Continue/,
		);
	});

	it("split turn without earlier history uses the placeholder", async () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user(sized(10)));
		manager.appendMessage(toolCallAssistant([{ id: "a", name: "bash", arguments: { command: "ls" } }]));
		manager.appendMessage(toolResult("a", sized(500)));
		const prep = prepareCompaction(manager.getBranch(), settings)!;
		const { model, complete, requests } = fauxSummarizer([fauxAssistantMessage("prefix only")]);
		const result = await compact(prep, model, { complete });
		expect(requests).toHaveLength(1);
		expect(result.summary).toBe("No prior history.\n\n---\n\n**Turn Context (split turn):**\n\nprefix only");
	});

	it.each([
		["error", { stopReason: "error" as const, errorMessage: "rate limited" }, "Summarization failed: rate limited"],
		[
			"length",
			{ stopReason: "length" as const },
			"Summarization failed: generation hit the token cap and the summary is incomplete",
		],
	])("rejects a summary that ended with %s and appends nothing", async (_, options, message) => {
		const manager = twoTurnSession();
		const before = manager.getEntryCount();
		const prep = prepareCompaction(manager.getBranch(), settings)!;
		const { model, complete } = fauxSummarizer([fauxAssistantMessage("partial", options)]);
		await expect(compact(prep, model, { complete })).rejects.toThrow(message);
		expect(manager.getEntryCount()).toBe(before);
	});

	it("rejects a summary that calls a tool", async () => {
		const prep = prepareCompaction(twoTurnSession().getBranch(), settings)!;
		const { model, complete } = fauxSummarizer([fauxAssistantMessage([fauxToolCall("read", { path: "a" })])]);
		await expect(compact(prep, model, { complete })).rejects.toThrow("Summarization attempted to call a tool");
	});

	it("clamps the output budget so input and output fit the window", () => {
		expect(summaryMaxTokens({ contextWindow: 200000, maxTokens: 64000 }, 10000)).toBe(64000);
		expect(summaryMaxTokens({ contextWindow: 128000, maxTokens: 64000 }, 100000)).toBe(
			Math.min(32768, 128000 - 100000 - 4096),
		);
		expect(summaryMaxTokens({ contextWindow: 128000, maxTokens: 64000 }, 127000)).toBe(1);
		expect(summaryMaxTokens({ contextWindow: 0, maxTokens: 8000 }, 1e9)).toBe(8000);
		const room = 400000 - 200000 - Math.ceil(0.15 * 200000);
		expect(summaryMaxTokens({ contextWindow: 400000, maxTokens: 500000 }, 200000)).toBe(room);
	});
});

describe("serialization for the summarizer", () => {
	it("labels roles, omits thinking, converts session roles and truncates long tool results", () => {
		const long = `${"a".repeat(1999)}😀tail`;
		const text = serializeConversation(
			convertToLlm([
				user("hi"),
				assistant("", {
					content: [
						{ type: "thinking", thinking: "secret" },
						{ type: "text", text: "answer" },
						{ type: "toolCall", id: "1", name: "grep", arguments: { pattern: "x", limit: 3 } },
					],
				}),
				toolResult("1", long),
				{
					role: "bashExecution",
					command: "ls",
					output: "",
					exitCode: 2,
					cancelled: false,
					truncated: false,
					timestamp: 0,
				},
				{ role: "compactionSummary", summary: "S", tokensBefore: 1, timestamp: 0 },
				{
					role: "bashExecution",
					command: "hidden",
					output: "x",
					exitCode: 0,
					cancelled: false,
					truncated: false,
					excludeFromContext: true,
					timestamp: 0,
				},
			]),
		);
		const parts = text.split("\n\n[");
		expect(parts[0]).toBe("[User]: hi");
		expect(text).not.toContain("secret");
		expect(text).toContain('[Assistant]: answer\n\n[Assistant tool calls]: grep(pattern="x", limit=3)');
		expect(text).toContain(`[Tool result]: ${"a".repeat(1999)}\n\n[... 6 more characters truncated]`);
		expect(text).toContain("[User]: Ran `ls`\n(no output)\n\nCommand exited with code 2");
		expect(text).toContain("<summary>\nS\n</summary>");
		expect(text).not.toContain("hidden");
	});
});

describe("summary retries", () => {
	it("retries transient failures under the retry policy and reports progress", async () => {
		const prep = prepareCompaction(twoTurnSession().getBranch(), settings)!;
		const { model, complete, requests } = fauxSummarizer([
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "503 service unavailable" }),
			fauxAssistantMessage("recovered"),
		]);
		const events: string[] = [];
		const result = await compact(prep, model, {
			complete,
			retry: { enabled: true, maxRetries: 2, baseDelayMs: 0 },
			retryCallbacks: {
				onRetryScheduled: (attempt, max) => events.push(`scheduled ${attempt}/${max}`),
				onRetryAttemptStart: () => events.push("start"),
				onRetryFinished: (success, attempt) => events.push(`finished ${success} ${attempt}`),
			},
		});
		expect(result.summary.startsWith("recovered")).toBe(true);
		expect(requests).toHaveLength(2);
		expect(events).toEqual(["scheduled 1/2", "start", "finished true 1"]);
	});

	it("does not retry without a policy or for deterministic errors", async () => {
		const prep = prepareCompaction(twoTurnSession().getBranch(), settings)!;
		const first = fauxSummarizer([
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "503 service unavailable" }),
		]);
		await expect(compact(prep, first.model, { complete: first.complete })).rejects.toThrow(
			"Summarization failed: 503",
		);
		expect(first.requests).toHaveLength(1);
		const quota = fauxSummarizer([
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "insufficient_quota" }),
		]);
		await expect(
			compact(prep, quota.model, {
				complete: quota.complete,
				retry: { enabled: true, maxRetries: 3, baseDelayMs: 0 },
			}),
		).rejects.toThrow("Summarization failed: insufficient_quota");
		expect(quota.requests).toHaveLength(1);
	});
});
