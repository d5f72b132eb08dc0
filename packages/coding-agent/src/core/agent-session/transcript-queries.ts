import type { Api, AssistantMessage, Model } from "@tau/ai";
import type { SessionEntry, SessionMessage } from "../session/index.js";

export interface ContextUsage {
	tokens: number | null;
	contextWindow: number;
	percent: number | null;
}

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
export function contextUsage(branch: readonly SessionEntry[], model: Model<Api> | undefined): ContextUsage | undefined {
	if (!model || model.contextWindow <= 0) return undefined;
	const lastCompaction = branch.findLastIndex((entry) => entry.type === "compaction");
	const lastResponse = branch.findLastIndex(
		(entry) => entry.type === "message" && entry.message.role === "assistant" && entry.message.stopReason !== "error",
	);
	const response = lastResponse > lastCompaction ? branch[lastResponse] : undefined;
	const usage = response?.type === "message" ? (response.message as AssistantMessage).usage : undefined;
	const tokens = usage ? usage.input + usage.output + usage.cacheRead + usage.cacheWrite : null;
	return {
		tokens,
		contextWindow: model.contextWindow,
		percent: tokens === null ? null : (tokens / model.contextWindow) * 100,
	};
}
