import type { Usage } from "@tau/ai";
import { getCurrentSystemMessage } from "@tau/ai";
import type { CompactionSettings } from "../../config/settings/index.js";
import type { SessionMessage } from "../session/messages.js";
import type { SessionEntry, SessionProjection } from "../session/types.js";

/** What one image is assumed to cost, in characters. */
export const ESTIMATED_IMAGE_CHARS = 4800;

/**
 * The number of context tokens a response's usage accounts for: the reported total, or the sum of input, output
 * and cache tokens.
 */
export function calculateContextTokens(usage: Usage): number {
	return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** Automatic compaction starts strictly above `window - reserve`. */
export function shouldCompact(contextTokens: number, contextWindow: number, settings: CompactionSettings): boolean {
	return settings.enabled && contextTokens > contextWindow - settings.reserveTokens;
}

function blockChars(content: unknown): number {
	if (typeof content === "string") return content.length;
	if (!Array.isArray(content)) return 0;
	let chars = 0;
	for (const block of content) {
		if (block?.type === "text") chars += String(block.text ?? "").length;
		else if (block?.type === "image") chars += ESTIMATED_IMAGE_CHARS;
	}
	return chars;
}

/** A heuristic `ceil(chars / 4)`; not guaranteed to over- or under-estimate. */
export function estimateTokens(message: SessionMessage): number {
	let chars = 0;
	switch (message.role) {
		case "system":
			chars = blockChars(message.content);
			for (const value of Object.values(message.sections ?? {})) if (value !== null) chars += value.length;
			if (message.toolsAdded) chars += JSON.stringify(message.toolsAdded).length;
			break;
		case "user":
		case "custom":
		case "toolResult":
			chars = blockChars(message.content);
			break;
		case "assistant":
			for (const block of message.content ?? []) {
				if (block.type === "text") chars += block.text.length;
				else if (block.type === "thinking") chars += block.thinking.length;
				else if (block.type === "toolCall") chars += block.name.length + JSON.stringify(block.arguments).length;
			}
			break;
		case "bashExecution":
			chars = message.command.length + message.output.length;
			break;
		case "branchSummary":
		case "compactionSummary":
			chars = message.summary.length;
			break;
	}
	return Math.ceil(chars / 4);
}

function validUsage(message: SessionMessage): Usage | undefined {
	if (message.role !== "assistant" || message.stopReason === "aborted" || message.stopReason === "error")
		return undefined;
	return message.usage && calculateContextTokens(message.usage) > 0 ? message.usage : undefined;
}

/** The usage of the newest assistant message that reported one (failed and aborted answers skipped). */
export function getLastAssistantUsage(entries: readonly SessionEntry[]): Usage | undefined {
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i]!;
		const usage = entry.type === "message" ? validUsage(entry.message as SessionMessage) : undefined;
		if (usage) return usage;
	}
	return undefined;
}

export interface ContextTokenEstimate {
	tokens: number;
	usageTokens: number;
	trailingTokens: number;
	lastUsageIndex: number | null;
}

/** The last reported usage plus estimates of what came after it; a pure estimate when there is none. */
export function estimateContextTokens(messages: readonly SessionMessage[]): ContextTokenEstimate {
	for (let k = messages.length - 1; k >= 0; k--) {
		const usage = validUsage(messages[k]!);
		if (!usage) continue;
		const usageTokens = calculateContextTokens(usage);
		let trailingTokens = 0;
		for (let i = k + 1; i < messages.length; i++) trailingTokens += estimateTokens(messages[i]!);
		return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex: k };
	}
	let tokens = 0;
	for (const message of messages) tokens += estimateTokens(message);
	return { tokens, usageTokens: 0, trailingTokens: tokens, lastUsageIndex: null };
}

/** The stored entry that contributed the projection's message at `index`, counted from the end. */
function sourceOfMessage(projection: SessionProjection, index: number): SessionEntry | undefined {
	let fromEnd = projection.messages.length - 1 - index;
	for (let i = projection.entries.length - 1; i >= 0; i--) {
		const entry = projection.entries[i]!;
		if (fromEnd < entry.messages.length) return entry.sourceEntry;
		fromEnd -= entry.messages.length;
	}
	return undefined;
}

/**
 * Like `estimateContextTokens` over a projection, but a usage reported before the latest context edit or
 * compaction described a different request: then everything is re-estimated, the replayed system
 * message counted once.
 */
export function estimateProjectedContextTokens(
	projection: SessionProjection,
	branchEntries: readonly SessionEntry[],
): ContextTokenEstimate {
	const estimate = estimateContextTokens(projection.messages);
	if (estimate.lastUsageIndex !== null) {
		// The usage is near the end: search from there, so a long history costs no walk from its start.
		const source = sourceOfMessage(projection, estimate.lastUsageIndex);
		const usageIndex = source ? branchEntries.lastIndexOf(source) : -1;
		const latestRewrite = branchEntries.findLastIndex(
			(entry) => entry.type === "context_edit" || entry.type === "compaction",
		);
		if (usageIndex > latestRewrite) return estimate;
	}
	const system = getCurrentSystemMessage(projection.messages);
	let tokens = system ? estimateTokens(system) : 0;
	for (const message of projection.messages) if (message.role !== "system") tokens += estimateTokens(message);
	return { tokens, usageTokens: 0, trailingTokens: tokens, lastUsageIndex: null };
}
