/**
 * Message shapes inside session entries: the `@tau/ai` message model plus the four roles the coding
 * agent adds (`bashExecution`, `custom`, and the projection-only summaries). Files may hold fields and
 * roles this code does not know; they are carried through untouched.
 */
import type {
	AssistantMessage,
	ImageContent,
	SystemMessage,
	TextContent,
	ToolResultMessage,
	UserMessage,
} from "@tau/ai";

export type {
	AssistantMessage,
	ImageContent,
	SystemMessage,
	TextContent,
	ThinkingContent,
	ToolCall,
	ToolResultMessage,
	Usage,
	UserMessage,
} from "@tau/ai";

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

// The coding agent's transcript roles join `AgentMessage`, so projections feed an `Agent` directly.
declare module "@tau/agent" {
	interface CustomAgentMessages {
		bashExecution: BashExecutionMessage;
		custom: CustomMessage;
		branchSummary: BranchSummaryMessage;
		compactionSummary: CompactionSummaryMessage;
	}
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
