import type { Usage } from "./messages.js";
import type { SessionEntry } from "./types.js";

/**
 * Message counts and spend over every entry of a session file (not just the active branch). The tree
 * adds them up on first use and then adds each entry as it is indexed, so the footer and `/session`
 * read them without walking the file again (docs/design/session-runtime.md#opening-a-long-session).
 */
export interface SessionEntryTotals {
	userMessages: number;
	assistantMessages: number;
	toolCalls: number;
	toolResults: number;
	totalMessages: number;
	tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
	cost: number;
}

export function emptyEntryTotals(): SessionEntryTotals {
	return {
		userMessages: 0,
		assistantMessages: 0,
		toolCalls: 0,
		toolResults: 0,
		totalMessages: 0,
		tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		cost: 0,
	};
}

/** A copy the caller may keep or change. */
export function copyEntryTotals(totals: SessionEntryTotals): SessionEntryTotals {
	return { ...totals, tokens: { ...totals.tokens } };
}

/** The usage an entry paid for: responses, tool-reported usage, summaries and usage records. */
function usageOf(entry: SessionEntry): Usage | undefined {
	switch (entry.type) {
		case "message": {
			const message = entry.message as { role?: string; usage?: Usage } | undefined;
			return message?.role === "assistant" || message?.role === "toolResult" ? message.usage : undefined;
		}
		case "compaction":
		case "branch_summary":
		case "usage":
			return entry.usage;
		default:
			return undefined;
	}
}

/**
 * Adds one entry. A hand-edited entry missing a field it reads counts as nothing instead of failing
 * the caller (the footer, `/session`).
 */
export function addEntryTotals(totals: SessionEntryTotals, entry: SessionEntry): void {
	if (entry.type === "message") {
		totals.totalMessages++;
		const message = entry.message as { role?: string; content?: unknown } | undefined;
		if (message?.role === "user") totals.userMessages++;
		else if (message?.role === "toolResult") totals.toolResults++;
		else if (message?.role === "assistant") {
			totals.assistantMessages++;
			if (Array.isArray(message.content)) {
				for (const block of message.content) if (block?.type === "toolCall") totals.toolCalls++;
			}
		}
	}
	const usage = usageOf(entry);
	if (!usage) return;
	const tokens = totals.tokens;
	tokens.input += usage.input;
	tokens.output += usage.output;
	tokens.cacheRead += usage.cacheRead;
	tokens.cacheWrite += usage.cacheWrite;
	tokens.total += usage.totalTokens;
	totals.cost += usage.cost?.total;
}
