import type { Usage } from "@tau/ai";
import type { ContextUsage } from "../extensions/index.js";
import type { SessionEntry, SessionManager } from "../session/index.js";

/** Message counts and spend of a whole session file (RPC `get_session_stats`, `/session`). */
export interface SessionStats {
	sessionFile?: string;
	sessionId: string;
	userMessages: number;
	assistantMessages: number;
	toolCalls: number;
	toolResults: number;
	totalMessages: number;
	tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
	cost: number;
	contextUsage?: ContextUsage;
}

/** The usage an entry paid for: responses, tool-reported usage, summaries and usage records. */
function usageOf(entry: SessionEntry): Usage | undefined {
	switch (entry.type) {
		case "message": {
			const message = entry.message as { role: string; usage?: Usage };
			return message.role === "assistant" || message.role === "toolResult" ? message.usage : undefined;
		}
		case "compaction":
		case "branch_summary":
		case "usage":
			return entry.usage;
		default:
			return undefined;
	}
}

/** Totals over every entry of the file, not just the active branch. */
export function computeSessionStats(
	sessionManager: SessionManager,
	contextUsage: ContextUsage | undefined,
): SessionStats {
	const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
	let cost = 0;
	let userMessages = 0;
	let assistantMessages = 0;
	let toolCalls = 0;
	let toolResults = 0;
	let totalMessages = 0;
	for (const entry of sessionManager.getEntries()) {
		if (entry.type === "message") {
			totalMessages++;
			const message = entry.message;
			if (message.role === "user") userMessages++;
			else if (message.role === "toolResult") toolResults++;
			else if (message.role === "assistant") {
				assistantMessages++;
				for (const block of message.content) if (block.type === "toolCall") toolCalls++;
			}
		}
		const usage = usageOf(entry);
		if (!usage) continue;
		tokens.input += usage.input;
		tokens.output += usage.output;
		tokens.cacheRead += usage.cacheRead;
		tokens.cacheWrite += usage.cacheWrite;
		tokens.total += usage.totalTokens;
		cost += usage.cost.total;
	}
	const file = sessionManager.getSessionFile();
	const stats: SessionStats = {
		...(file ? { sessionFile: file } : {}),
		sessionId: sessionManager.getSessionId(),
		userMessages,
		assistantMessages,
		toolCalls,
		toolResults,
		totalMessages,
		tokens,
		cost,
	};
	if (contextUsage) stats.contextUsage = contextUsage;
	return stats;
}
