import { isRecord, text } from "./dom.js";
import { messageOf, toolCallsOf } from "./entry-text.js";
import type { Entry } from "./session-model.js";

export interface SessionStats {
	entries: number;
	userMessages: number;
	assistantMessages: number;
	toolCalls: number;
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	cost: number;
	models: string[];
}

const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** Totals over the whole file: every branch, plus usage recorded outside replies (summaries, cache warming). */
export function computeStats(entries: readonly Entry[]): SessionStats {
	const stats: SessionStats = {
		entries: entries.length,
		userMessages: 0,
		assistantMessages: 0,
		toolCalls: 0,
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		cost: 0,
		models: [],
	};
	const models = new Set<string>();
	const addUsage = (usage: unknown) => {
		if (!isRecord(usage)) return;
		stats.input += count(usage.input);
		stats.output += count(usage.output);
		stats.cacheRead += count(usage.cacheRead);
		stats.cacheWrite += count(usage.cacheWrite);
		if (isRecord(usage.cost)) stats.cost += count(usage.cost.total);
	};
	for (const entry of entries) {
		const message = messageOf(entry);
		if (message?.role === "user") stats.userMessages++;
		else if (message?.role === "assistant") {
			stats.assistantMessages++;
			stats.toolCalls += toolCallsOf(message.content).length;
			addUsage(message.usage);
			const model = [text(message.provider), text(message.model)].filter(Boolean).join("/");
			if (model) models.add(model);
		} else if (message?.role === "toolResult") addUsage(message.usage);
		else if (entry.type === "usage" || entry.type === "compaction" || entry.type === "branch_summary") {
			addUsage(entry.usage);
		}
	}
	stats.models = [...models];
	return stats;
}

/** The system prompt and tools in force at the end of a branch: the first system message, then its patches. */
export function promptAt(branch: readonly Entry[]): {
	prompt: string;
	sections: Map<string, string>;
	tools: Map<string, string>;
} {
	let prompt = "";
	const sections = new Map<string, string>();
	const tools = new Map<string, string>();
	for (const entry of branch) {
		const message = messageOf(entry);
		if (message?.role !== "system") continue;
		const content = typeof message.content === "string" ? message.content : "";
		if (content) prompt = content;
		if (isRecord(message.sections)) {
			for (const [name, value] of Object.entries(message.sections)) {
				if (typeof value === "string") sections.set(name, value);
				else sections.delete(name);
			}
		}
		if (Array.isArray(message.toolsRemoved))
			for (const tool of message.toolsRemoved) if (isRecord(tool)) tools.delete(text(tool.name));
		if (Array.isArray(message.toolsAdded)) {
			for (const tool of message.toolsAdded) if (isRecord(tool)) tools.set(text(tool.name), text(tool.description));
		}
	}
	return { prompt, sections, tools };
}
