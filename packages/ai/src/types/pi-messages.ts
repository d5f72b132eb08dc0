import type { ToolCall } from "./content.js";
import type { AssistantMessage } from "./messages.js";
import type { SimpleStreamOptions } from "./options.js";

/* The pi-messages wire protocol (docs/ai.md "The pi-messages API"). */

/** Options of a pi-messages request; `debug` asks the backend for debug metadata (`?debug=1`). */
export interface PiMessagesOptions extends SimpleStreamOptions {
	debug?: boolean;
}

/** Impact summary of a server-side rewrite of the conversation (a gateway policy). */
export interface PiMessagesRewriteImpact {
	policyId: string;
	policyVersion: number;
	changed: boolean;
	tokenCountChange: number;
	messageCountChange: number;
	systemPromptChanged: boolean;
}

interface PiMessagesTerminal {
	usage: AssistantMessage["usage"];
	responseId?: string;
	responseModel?: string;
	providerThinkingLevel?: string;
	rewrite?: PiMessagesRewriteImpact;
}

/** One event of the pi-messages protocol: an assistant-message event without `partial`. */
export type PiMessagesEvent =
	| { type: "start" }
	| { type: "text_start" | "thinking_start"; contentIndex: number }
	| { type: "text_delta" | "thinking_delta" | "toolcall_delta"; contentIndex: number; delta: string }
	| { type: "text_end"; contentIndex: number; content: string; contentSignature?: string }
	| { type: "thinking_end"; contentIndex: number; content: string; contentSignature?: string; redacted?: boolean }
	| { type: "toolcall_start"; contentIndex: number; id: string; toolName: string }
	| { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall }
	| ({ type: "done"; reason: "stop" | "length" | "toolUse" } & PiMessagesTerminal)
	| ({ type: "error"; reason: "aborted" | "error"; errorMessage?: string } & PiMessagesTerminal);
