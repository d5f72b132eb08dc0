import type { AgentMessage } from "@tau/agent";
import { type AssistantMessage, fauxAssistantMessage } from "@tau/ai";
import type { AgentSessionEvent } from "@tau/coding-agent";
import { stripTerminalSequences } from "@tau/tui";
import { describe, expect, it, vi } from "vitest";
import type { TranscriptController } from "../../src/modes/interactive/controller/transcript-controller.js";
import { transcriptFixture } from "./transcript-fixture.js";

function setup(cacheMissNotices: boolean, rebuildChat: (options?: { compactionLast?: boolean }) => void = () => {}) {
	return transcriptFixture({ rebuildChat, showCacheMissNotices: () => cacheMissNotices }, 100);
}

/** A completed reply whose usage read `cacheRead` tokens from the cache and wrote `cacheWrite`. */
function reply(controller: TranscriptController, cacheRead: number, cacheWrite: number): void {
	const message: AssistantMessage = fauxAssistantMessage("answer");
	message.usage = { ...message.usage, input: 1500, cacheRead, cacheWrite };
	controller.handle({ type: "message_start", message } as AgentSessionEvent);
	controller.handle({ type: "message_end", message } as AgentSessionEvent);
}

describe("transcript notices (docs/design/interactive.md#transcript)", () => {
	it("a reply that reads nothing from the cache after one that used it shows a cache-miss notice when enabled", () => {
		const { controller, text } = setup(true);
		reply(controller, 0, 4000);
		reply(controller, 4000, 200);
		expect(text()).not.toContain("Cache miss");
		reply(controller, 0, 4200);
		expect(text()).toContain("Cache miss: 5.7k prompt tokens were not read from the cache (faux/faux-1)");
	});

	it("no cache-miss notice when the setting is off", () => {
		const { controller, text } = setup(false);
		reply(controller, 0, 4000);
		reply(controller, 0, 4000);
		expect(text()).not.toContain("Cache miss");
	});

	it("a cache_warm usage entry shows a cache-warming notice", () => {
		const { controller, text } = setup(false);
		const usage = fauxAssistantMessage("x").usage;
		controller.handle({
			type: "entry_appended",
			entry: {
				type: "usage",
				kind: "cache_warm",
				provider: "anthropic",
				model: "claude-x",
				usage: { ...usage, cost: { ...usage.cost, total: 0.0021 } },
				id: "u1",
				parentId: null,
				timestamp: new Date(0).toISOString(),
			},
		} as AgentSessionEvent);
		expect(text()).toContain("Cache warmed for anthropic/claude-x ($0.002)");
	});

	it("a successful compaction shows pi's summary block below the kept messages, and what the summary cost", () => {
		// After a compaction the context is the summary, then the kept messages.
		const context: AgentMessage[] = [
			{ role: "compactionSummary", summary: "the summary", tokensBefore: 120000, timestamp: 0 },
			{ role: "user", content: "kept question", timestamp: 0 },
		];
		const { controller, text } = setup(false, (options) => controller.renderHistory(context, options));
		const usage = fauxAssistantMessage("x").usage;
		const result = {
			summary: "s",
			firstKeptEntryId: "e1",
			tokensBefore: 120000,
			estimatedTokensAfter: 8000,
			details: { readFiles: [], modifiedFiles: [] },
		};
		controller.handle({ type: "compaction_start", reason: "manual" } as AgentSessionEvent);
		controller.handle({
			type: "compaction_end",
			reason: "manual",
			aborted: false,
			willRetry: false,
			result: { ...result, usage: { ...usage, cost: { ...usage.cost, total: 0.0123 } } },
		} as AgentSessionEvent);
		const screen = text();
		expect(screen).toContain("[compaction]");
		expect(screen).toContain("Compacted from 120,000 tokens (Ctrl+O to expand)");
		expect(screen).not.toContain("the summary");
		expect(screen.indexOf("kept question")).toBeLessThan(screen.indexOf("[compaction]"));
		expect(text()).toContain("Compaction cost: $0.012");
		controller.handle({
			type: "compaction_end",
			reason: "threshold",
			aborted: false,
			willRetry: false,
			result,
		} as AgentSessionEvent);
		// The transcript is drawn again; a compaction without usage adds no cost notice.
		expect(text()).not.toContain("Compaction cost");
		expect(text()).toContain("[compaction]");
	});

	it("summarization retries show the error, a countdown, then the branch or compaction indicator, and clear it", () => {
		vi.useFakeTimers();
		try {
			const { controller, text, status } = setup(false);
			controller.handle({
				type: "summarization_retry_scheduled",
				attempt: 1,
				maxAttempts: 3,
				delayMs: 2000,
				errorMessage: "overloaded",
			} as AgentSessionEvent);
			expect(text()).toContain("overloaded");
			expect(stripTerminalSequences(status.text ?? "")).toContain("Retrying (1/3) in 2s... (Escape to cancel)");
			vi.advanceTimersByTime(1000);
			expect(stripTerminalSequences(status.text ?? "")).toContain("Retrying (1/3) in 1s... (Escape to cancel)");
			controller.handle({ type: "summarization_retry_attempt_start", source: "branchSummary" } as AgentSessionEvent);
			expect(stripTerminalSequences(status.text ?? "")).toContain("Summarizing branch... (Escape to cancel)");
			controller.handle({
				type: "summarization_retry_attempt_start",
				source: "compaction",
				reason: "overflow",
			} as AgentSessionEvent);
			expect(stripTerminalSequences(status.text ?? "")).toContain(
				"Context overflow detected, Auto-compacting... (Escape to cancel)",
			);
			controller.handle({ type: "summarization_retry_finished" } as AgentSessionEvent);
			expect(status.text).toBeUndefined();
		} finally {
			vi.useRealTimers();
		}
	});

	it("agent_end clears the working indicator and removes a leftover streaming component", () => {
		const { controller, text, status } = setup(false);
		controller.handle({ type: "turn_start" } as AgentSessionEvent);
		expect(stripTerminalSequences(status.text ?? "")).toContain("Working (Escape to interrupt)");
		const partial = fauxAssistantMessage("half an answer");
		controller.handle({ type: "message_start", message: partial } as AgentSessionEvent);
		expect(text()).toContain("half an answer");
		controller.handle({ type: "agent_end", messages: [] } as unknown as AgentSessionEvent);
		expect(status.text).toBeUndefined();
		expect(text()).not.toContain("half an answer");
	});

	it("a compaction entry appended outside a compaction run rebuilds the chat after the context is re-projected", async () => {
		let rebuilds = 0;
		const { controller, text } = setup(false, () => rebuilds++);
		const usage = fauxAssistantMessage("x").usage;
		const entry = {
			type: "compaction",
			id: "c1",
			parentId: null,
			timestamp: new Date(0).toISOString(),
			summary: "summary",
			firstKeptEntryId: "c1",
			tokensBefore: 1000,
			usage: { ...usage, cost: { ...usage.cost, total: 0.004 } },
		};
		controller.handle({ type: "entry_appended", entry } as AgentSessionEvent);
		expect(rebuilds).toBe(0);
		await Promise.resolve();
		expect(rebuilds).toBe(1);
		expect(text()).toContain("Compaction cost: $0.004");
		// Inside a compaction run the compaction_end handler rebuilds instead.
		controller.handle({ type: "compaction_start", reason: "threshold" } as AgentSessionEvent);
		controller.handle({ type: "entry_appended", entry: { ...entry, id: "c2" } } as AgentSessionEvent);
		await Promise.resolve();
		expect(rebuilds).toBe(1);
	});
});
