import { isRecord, text } from "./dom.js";
import type { Entry } from "./session-model.js";

/** The text of a message's content: a string, or its text (and thinking) blocks joined. */
export function contentText(content: unknown, withThinking = false): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	const parts: string[] = [];
	for (const block of content) {
		if (!isRecord(block)) continue;
		if (block.type === "text") parts.push(text(block.text));
		else if (withThinking && block.type === "thinking") parts.push(text(block.thinking));
	}
	return parts.join("\n");
}

export function toolCallsOf(content: unknown): Record<string, unknown>[] {
	return Array.isArray(content) ? content.filter((block) => isRecord(block) && block.type === "toolCall") : [];
}

export function messageOf(entry: Entry): Record<string, unknown> | undefined {
	return entry.type === "message" && isRecord(entry.message) ? entry.message : undefined;
}

export function roleOf(entry: Entry): string | undefined {
	const role = messageOf(entry)?.role;
	return typeof role === "string" ? role : undefined;
}

const oneLine = (value: string) => value.replace(/\s+/g, " ").trim();

/** What a tree row shows for an entry: its kind and a one-line preview. */
export function entrySummary(entry: Entry): { kind: string; preview: string } {
	const message = messageOf(entry);
	if (message) {
		const role = text(message.role) || "message";
		switch (role) {
			case "user":
				return { kind: "user", preview: oneLine(contentText(message.content)) };
			case "assistant": {
				const said = oneLine(contentText(message.content));
				const calls = toolCallsOf(message.content).map((call) => text(call.name));
				const error = message.stopReason === "error" || message.stopReason === "aborted";
				const preview =
					said || (calls.length > 0 ? `→ ${calls.join(", ")}` : error ? text(message.stopReason) : "");
				return { kind: "assistant", preview };
			}
			case "toolResult":
				return { kind: "tool", preview: `${text(message.toolName)}: ${oneLine(contentText(message.content))}` };
			case "bashExecution":
				return { kind: "bash", preview: `$ ${oneLine(text(message.command))}` };
			case "system":
				return { kind: "system", preview: "system prompt" };
			case "custom":
				return { kind: "custom", preview: `${text(message.customType)}: ${oneLine(contentText(message.content))}` };
			default:
				return { kind: role, preview: oneLine(contentText(message.content)) };
		}
	}
	switch (entry.type) {
		case "compaction":
			return { kind: "compaction", preview: oneLine(text(entry.summary)) };
		case "branch_summary":
			return { kind: "branch summary", preview: oneLine(text(entry.summary)) };
		case "model_change":
			return { kind: "model", preview: `${text(entry.provider)}/${text(entry.modelId)}` };
		case "thinking_level_change":
			return { kind: "thinking", preview: text(entry.thinkingLevel) };
		case "label":
			return { kind: "label", preview: text(entry.label) || "(cleared)" };
		case "session_info":
			return { kind: "name", preview: text(entry.name) };
		case "custom_message":
			return { kind: "custom", preview: `${text(entry.customType)}: ${oneLine(contentText(entry.content))}` };
		case "custom":
			return { kind: "extension", preview: text(entry.customType) };
		case "usage":
			return { kind: "usage", preview: `${text(entry.kind)} ${text(entry.model)}` };
		case "context_edit":
			return { kind: "context edit", preview: entry.replacement === null ? "hidden" : "replaced" };
		default:
			return { kind: entry.type, preview: "" };
	}
}

const searchCache = new WeakMap<Entry, string>();

/** Everything a search may match in an entry (lower case): its text, tool arguments and output. */
export function searchText(entry: Entry): string {
	let cached = searchCache.get(entry);
	if (cached === undefined) {
		const { kind, preview } = entrySummary(entry);
		const message = messageOf(entry);
		const extra = message
			? [
					contentText(message.content, true),
					...toolCallsOf(message.content).map((call) => JSON.stringify(call.arguments ?? {})),
					text(message.output),
				]
			: [text(entry.summary)];
		cached = [kind, preview, ...extra].join("\n").toLowerCase();
		searchCache.set(entry, cached);
	}
	return cached;
}
