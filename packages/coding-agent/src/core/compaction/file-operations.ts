import type { SessionMessage } from "../session/messages.js";
import type { FileListDetails } from "../session/types.js";

/**
 * Files read and written in a stretch of conversation, collected from tool calls for compaction and branch
 * summaries.
 */
export interface FileOperations {
	read: Set<string>;
	written: Set<string>;
	edited: Set<string>;
}

export function createFileOperations(): FileOperations {
	return { read: new Set(), written: new Set(), edited: new Set() };
}

function record(ops: FileOperations, tool: string, args: unknown): void {
	const path = (args as { path?: unknown } | undefined)?.path;
	if (typeof path !== "string") return;
	if (tool === "read") ops.read.add(path);
	else if (tool === "write") ops.written.add(path);
	else if (tool === "edit") ops.edited.add(path);
}

/** File paths touched by built-in tool calls: assistant tool calls and calls nested in tool results (codemode). */
export function extractFileOperations(message: SessionMessage, ops: FileOperations): void {
	if (message.role === "assistant") {
		for (const block of message.content ?? [])
			if (block.type === "toolCall") record(ops, block.name, block.arguments);
	} else if (message.role === "toolResult") {
		for (const call of message.nestedCalls?.calls ?? []) record(ops, call.name, call.arguments);
	}
}

/** Adds lists carried over from a previous built-in summary's details. */
export function addFileLists(ops: FileOperations, details: unknown): void {
	const { readFiles, modifiedFiles } = (details ?? {}) as Partial<FileListDetails>;
	if (Array.isArray(readFiles)) for (const path of readFiles) ops.read.add(path);
	if (Array.isArray(modifiedFiles)) for (const path of modifiedFiles) ops.edited.add(path);
}

/** Modified = edited ∪ written; read = read − modified; both sorted. */
export function computeFileLists(ops: FileOperations): FileListDetails {
	const modified = new Set([...ops.edited, ...ops.written]);
	return {
		readFiles: [...ops.read].filter((path) => !modified.has(path)).sort(),
		modifiedFiles: [...modified].sort(),
	};
}

/** The `<read-files>` / `<modified-files>` blocks appended to a summary (nothing when both are empty). */
export function formatFileLists(lists: FileListDetails): string {
	const blocks: string[] = [];
	if (lists.readFiles.length > 0) blocks.push(`<read-files>\n${lists.readFiles.join("\n")}\n</read-files>`);
	if (lists.modifiedFiles.length > 0)
		blocks.push(`<modified-files>\n${lists.modifiedFiles.join("\n")}\n</modified-files>`);
	return blocks.length > 0 ? `\n\n${blocks.join("\n\n")}` : "";
}
