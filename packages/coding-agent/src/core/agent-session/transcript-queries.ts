import type { Api, AssistantMessage, Model } from "@tau/ai";
import { calculateContextTokens, estimateProjectedContextTokens } from "../compaction/estimation.js";
import type { ContextUsage } from "../extensions/index.js";
import type { SessionEntry, SessionMessage, SessionProjection } from "../session/index.js";

function textOf(content: string | readonly { type: string; text?: string }[], separator: string): string {
	if (typeof content === "string") return content;
	return content
		.flatMap((block) => (block.type === "text" && block.text !== undefined ? [block.text] : []))
		.join(separator);
}

/** The user messages of the branch, for `/fork`. */
export function userMessagesForForking(branch: readonly SessionEntry[]): { entryId: string; text: string }[] {
	return branch.flatMap((entry) =>
		entry.type === "message" && entry.message.role === "user"
			? [{ entryId: entry.id, text: textOf(entry.message.content, "\n") }]
			: [],
	);
}

/** Newest assistant reply that stopped normally or has text (skips aborted, failed and tool-only replies). */
export function lastAssistantText(messages: readonly SessionMessage[]): string | undefined {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i]!;
		if (message.role !== "assistant") continue;
		const text = textOf(message.content, "").trim();
		if (message.stopReason === "stop" || text !== "") return text === "" ? undefined : text;
	}
	return undefined;
}

/** Context fill from the latest response's usage; unknown (`null`) after a compaction until the next response. */
/**
 * Context use as pi reports it: estimated from the projected context (the last reported usage plus
 * what came after it), unknown (`null`) only after a compaction that no reply has measured yet.
 */
export function contextUsage(
	branch: readonly SessionEntry[],
	model: Model<Api> | undefined,
	projection: SessionProjection,
): ContextUsage | undefined {
	if (!model || model.contextWindow <= 0) return undefined;
	const lastCompaction = branch.findLastIndex((entry) => entry.type === "compaction");
	if (lastCompaction >= 0) {
		const measured = branch
			.slice(lastCompaction + 1)
			.some(
				(entry) =>
					entry.type === "message" &&
					entry.message.role === "assistant" &&
					entry.message.stopReason !== "error" &&
					entry.message.stopReason !== "aborted" &&
					calculateContextTokens((entry.message as AssistantMessage).usage) > 0,
			);
		if (!measured) return { tokens: null, contextWindow: model.contextWindow, percent: null };
	}
	const { tokens } = estimateProjectedContextTokens(projection, branch);
	return { tokens, contextWindow: model.contextWindow, percent: (tokens / model.contextWindow) * 100 };
}
