import type { AgentSession } from "../../../core/agent-session/agent-session.js";
import type { Theme } from "../../../core/resources/index.js";
import { formatTokens } from "../components/footer.js";

/** Spend per `provider/model` over every assistant reply of the session file, most expensive first. */
function costByModel(session: AgentSession): { model: string; cost: number; replies: number }[] {
	const byModel = new Map<string, { cost: number; replies: number }>();
	for (const entry of session.sessionManager.getEntries()) {
		if (entry.type !== "message" || entry.message.role !== "assistant") continue;
		const message = entry.message;
		const key = `${message.provider}/${message.model}`;
		const row = byModel.get(key) ?? { cost: 0, replies: 0 };
		row.cost += message.usage.cost.total;
		row.replies++;
		byModel.set(key, row);
	}
	return [...byModel.entries()].map(([model, row]) => ({ model, ...row })).sort((a, b) => b.cost - a.cost);
}

/** `/session`: name, file, id, counts, tokens, cost per model, cache statistics, context, cache warming. */
export function sessionInfoLines(session: AgentSession, theme: Theme): string[] {
	const stats = session.getSessionStats();
	const { tokens } = stats;
	const lines = [
		theme.bold("Session"),
		`Name: ${session.sessionName ?? "(none)"}`,
		`File: ${session.sessionFile ?? "In-memory"}`,
		`ID: ${session.sessionId}`,
		`Messages: ${stats.userMessages} user, ${stats.assistantMessages} assistant, ${stats.toolCalls} tool calls, ${stats.totalMessages} total`,
		`Tokens: ${formatTokens(tokens.input)} in, ${formatTokens(tokens.output)} out, ${formatTokens(tokens.cacheRead)} cache read, ${formatTokens(tokens.cacheWrite)} cache write`,
		`Cost: $${stats.cost.toFixed(3)}`,
	];
	for (const row of costByModel(session)) {
		lines.push(`  ${row.model}: $${row.cost.toFixed(3)} (${row.replies} ${row.replies === 1 ? "reply" : "replies"})`);
	}
	const prompt = tokens.input + tokens.cacheRead + tokens.cacheWrite;
	if (tokens.cacheRead + tokens.cacheWrite > 0 && prompt > 0) {
		const hit = ((tokens.cacheRead / prompt) * 100).toFixed(1);
		lines.push(
			`Cache: ${hit}% of prompt tokens read from cache (${formatTokens(tokens.cacheRead)} read, ${formatTokens(tokens.cacheWrite)} written)`,
		);
	} else lines.push("Cache: no cached prompt tokens yet");
	if (stats.contextUsage) {
		const { tokens: used, contextWindow, percent } = stats.contextUsage;
		lines.push(
			`Context: ${used === null ? "?" : formatTokens(used)} / ${formatTokens(contextWindow)}${percent === null ? "" : ` (${percent.toFixed(1)}%)`}`,
		);
	}
	lines.push(`Cache warming: ${session.settingsManager.getCacheWarmingMode()}`);
	return lines;
}
