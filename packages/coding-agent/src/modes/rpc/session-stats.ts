import type { Usage } from "@tau/ai";
import type { AgentSession } from "../../core/agent-session/agent-session.js";
import type { SessionEntry } from "../../core/session/index.js";
import type { SessionStats } from "./types.js";

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

/** `get_session_stats` (rpc-protocol.md §4.21): totals over every entry of the file, not just the branch. */
export function computeSessionStats(session: AgentSession): SessionStats {
	const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
	let cost = 0;
	let userMessages = 0;
	let assistantMessages = 0;
	let toolCalls = 0;
	let toolResults = 0;
	let totalMessages = 0;
	for (const entry of session.sessionManager.getEntries()) {
		if (entry.type === "message") {
			totalMessages++;
			const message = entry.message;
			if (message.role === "user") userMessages++;
			else if (message.role === "toolResult") toolResults++;
			else if (message.role === "assistant") {
				assistantMessages++;
				toolCalls += message.content.filter((block) => block.type === "toolCall").length;
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
	const file = session.sessionFile;
	const stats: SessionStats = {
		...(file ? { sessionFile: file } : {}),
		sessionId: session.sessionId,
		userMessages,
		assistantMessages,
		toolCalls,
		toolResults,
		totalMessages,
		tokens,
		cost,
	};
	const contextUsage = session.getContextUsage();
	if (contextUsage) stats.contextUsage = contextUsage;
	return stats;
}
