/**
 * Message shapes as they appear inside session entries.
 *
 * These are structural mirrors of the `@tau/ai` message model plus the four roles the coding
 * agent adds to `AgentMessage`. They are kept minimal and local because the persistence layer
 * must read whatever a file holds (old, hand-edited or foreign), and only ever inspects a few
 * fields; every field it does not know is carried through untouched.
 */

export interface TextContent {
	type: "text";
	text: string;
	textSignature?: string;
}

export interface ImageContent {
	type: "image";
	data: string;
	mimeType: string;
}

export interface ThinkingContent {
	type: "thinking";
	thinking: string;
	thinkingSignature?: string;
	redacted?: boolean;
}

export interface ToolCall {
	type: "toolCall";
	id: string;
	name: string;
	arguments: Record<string, unknown>;
}

export interface UsageCost {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	total: number;
}

export interface Usage {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	totalTokens: number;
	cost: UsageCost;
}

export interface ToolDeclaration {
	name: string;
	[field: string]: unknown;
}

export interface SystemMessage {
	role: "system";
	content: string | TextContent[];
	sections?: Record<string, string | null>;
	toolsAdded?: ToolDeclaration[];
	toolsRemoved?: { name: string }[];
	timestamp: number;
}

export interface UserMessage {
	role: "user";
	content: string | (TextContent | ImageContent)[];
	timestamp: number;
}

export interface AssistantMessage {
	role: "assistant";
	content: (TextContent | ThinkingContent | ToolCall)[];
	api: string;
	provider: string;
	model: string;
	usage: Usage;
	stopReason: string;
	errorMessage?: string;
	timestamp: number;
}

export interface NestedToolCallRecord {
	id: string;
	name: string;
	arguments?: Record<string, unknown>;
	status: string;
}

export interface ToolResultMessage {
	role: "toolResult";
	toolCallId: string;
	toolName: string;
	content: (TextContent | ImageContent)[];
	details?: unknown;
	nestedCalls?: { calls: NestedToolCallRecord[]; complete: boolean };
	isError: boolean;
	timestamp: number;
}

/** A user `!cmd` shell run recorded in the transcript. */
export interface BashExecutionMessage {
	role: "bashExecution";
	command: string;
	output: string;
	exitCode: number | undefined;
	cancelled: boolean;
	truncated: boolean;
	fullOutputPath?: string;
	excludeFromContext?: boolean;
	timestamp: number;
}

/** Extension or SDK context message; sent to the model as a user message. */
export interface CustomMessage<T = unknown> {
	role: "custom";
	customType: string;
	content: string | (TextContent | ImageContent)[];
	display: boolean;
	details?: T;
	timestamp: number;
}

/** Projection-only: the summary of a branch the conversation returned from. */
export interface BranchSummaryMessage {
	role: "branchSummary";
	summary: string;
	fromId: string | null;
	timestamp: number;
}

/** Projection-only: the summary that replaced compacted history. */
export interface CompactionSummaryMessage {
	role: "compactionSummary";
	summary: string;
	tokensBefore: number;
	timestamp: number;
}

export type LlmMessage = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

export type SessionMessage =
	| LlmMessage
	| BashExecutionMessage
	| CustomMessage
	| BranchSummaryMessage
	| CompactionSummaryMessage;

/** The messages that may be passed to `appendMessage` (summaries exist only in projections). */
export type AppendableMessage = LlmMessage | BashExecutionMessage | CustomMessage;

/** Text of a string or block content, text blocks joined with `separator`; other blocks ignored. */
export function contentText(content: unknown, separator: string): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	const parts: string[] = [];
	for (const block of content) {
		if (block && typeof block === "object" && (block as TextContent).type === "text") {
			parts.push(String((block as TextContent).text ?? ""));
		}
	}
	return parts.join(separator);
}
