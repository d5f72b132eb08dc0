import { homedir } from "node:os";
import { isAbsolute, relative, sep } from "node:path";
import type { SessionEntry } from "../../../core/session/index.js";

/** A tool call an assistant message made, looked up by its id when the tool's result is shown. */
export interface TreeToolCall {
	name: string;
	arguments: Record<string, unknown>;
}

type Content = string | readonly { type: string; text?: string; id?: string; name?: string; arguments?: unknown }[];

function flat(text: string): string {
	return text.replace(/[\n\t]/g, " ").trim();
}

/** The text parts of message content. */
export function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return (content as Exclude<Content, string>)
		.filter((part) => part.type === "text")
		.map((part) => part.text ?? "")
		.join("");
}

function homePath(path: string): string {
	const home = homedir();
	if (!isAbsolute(path) || !(path === home || path.startsWith(home + sep))) return path;
	const rest = relative(home, path);
	return rest ? `~${sep}${rest}` : "~";
}

function lineRange(offset: unknown, limit: unknown): string {
	const number = (value: unknown) => {
		const parsed = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
		return typeof parsed === "number" && Number.isFinite(parsed) ? parsed : undefined;
	};
	if (offset == null && limit == null) return "";
	const start = offset == null ? 1 : number(offset);
	if (start === undefined) return "";
	if (limit == null) return `:${start}`;
	const count = number(limit);
	if (count === undefined) return "";
	const end = start + count - 1;
	return `:${start}${end ? `-${end}` : ""}`;
}

/** A tool call in one line, as pi's tree shows it: `[read: ~/x.ts:1-20]`, `[bash: ls -la]`. */
export function toolCallText(call: TreeToolCall): string {
	const args = call.arguments;
	const path = (value: unknown, fallback = "") => homePath(String(value || fallback));
	switch (call.name) {
		case "read":
			return `[read: ${path(args.path || args.file_path)}${lineRange(args.offset, args.limit)}]`;
		case "write":
		case "edit":
			return `[${call.name}: ${path(args.path || args.file_path)}]`;
		case "bash": {
			const command = String(args.command || "");
			return `[bash: ${flat(command).slice(0, 50)}${command.length > 50 ? "..." : ""}]`;
		}
		case "grep":
			return `[grep: /${String(args.pattern || "")}/ in ${path(args.path, ".")}]`;
		case "find":
			return `[find: ${String(args.pattern || "")} in ${path(args.path, ".")}]`;
		case "ls":
			return `[ls: ${path(args.path, ".")}]`;
		default: {
			const json = JSON.stringify(args) ?? "";
			return `[${call.name}: ${json.slice(0, 40)}${json.length > 40 ? "..." : ""}]`;
		}
	}
}

/** Every tool call made in `entries`, by call id. */
export function toolCallsOf(entries: Iterable<SessionEntry>): Map<string, TreeToolCall> {
	const calls = new Map<string, TreeToolCall>();
	for (const entry of entries) {
		if (entry.type !== "message" || entry.message.role !== "assistant") continue;
		const content = (entry.message as { content?: unknown }).content;
		if (!Array.isArray(content)) continue;
		for (const part of content as Exclude<Content, string>) {
			if (part.type === "toolCall" && part.id && part.name) {
				calls.set(part.id, { name: part.name, arguments: (part.arguments ?? {}) as Record<string, unknown> });
			}
		}
	}
	return calls;
}

/** An entry's line in `/tree`, named as pi names it (`user: …`, `[compaction: 12k tokens]`, `[model: …]`). */
export function treeEntryText(entry: SessionEntry, toolCalls: ReadonlyMap<string, TreeToolCall>): string {
	switch (entry.type) {
		case "message": {
			const message = entry.message as {
				role: string;
				content?: unknown;
				stopReason?: string;
				errorMessage?: string;
				toolCallId?: string;
				toolName?: string;
				command?: string;
			};
			switch (message.role) {
				case "user":
					return `user: ${flat(contentText(message.content).slice(0, 200))}`;
				case "assistant": {
					const text = flat(contentText(message.content).slice(0, 200));
					if (text) return `assistant: ${text}`;
					if (message.stopReason === "aborted") return "assistant: (aborted)";
					if (message.errorMessage) return `assistant: ${flat(message.errorMessage).slice(0, 80)}`;
					return "assistant: (no content)";
				}
				case "toolResult": {
					const call = message.toolCallId ? toolCalls.get(message.toolCallId) : undefined;
					return call ? toolCallText(call) : `[${message.toolName ?? "tool"}]`;
				}
				case "bashExecution":
					return `[bash]: ${flat(message.command ?? "")}`;
				default:
					return `[${message.role}]`;
			}
		}
		case "custom_message":
			return `[${entry.customType}]: ${flat(contentText(entry.content))}`;
		case "compaction":
			return `[compaction: ${Math.round(entry.tokensBefore / 1000)}k tokens]`;
		case "branch_summary":
			return `[branch summary]: ${flat(entry.summary)}`;
		case "model_change":
			return `[model: ${entry.modelId}]`;
		case "thinking_level_change":
			return `[thinking: ${entry.thinkingLevel}]`;
		case "custom":
			return `[custom: ${entry.customType}]`;
		case "context_edit":
			return `[context ${entry.replacement === null ? "omit" : "replace"}: ${entry.targetId}]`;
		case "label":
			return `[label: ${entry.label ?? "(cleared)"}]`;
		case "session_info":
			return `[title: ${entry.name || "empty"}]`;
		default:
			return "";
	}
}

/** What `app.message.copy` copies from a tree entry: its full text, undefined when it has none. */
export function treeEntryCopyText(entry: SessionEntry): string | undefined {
	let text: string | undefined;
	if (entry.type === "message") {
		const message = entry.message as { role: string; content?: unknown; command?: string; errorMessage?: string };
		if (message.role === "bashExecution") text = message.command;
		else {
			text = contentText(message.content);
			if (!text && message.role === "assistant") text = message.errorMessage;
		}
	} else if (entry.type === "custom_message") text = contentText(entry.content);
	else if (entry.type === "compaction" || entry.type === "branch_summary") text = entry.summary;
	return text?.trim() ? text : undefined;
}
