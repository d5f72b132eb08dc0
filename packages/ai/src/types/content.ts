import type { JsonObject } from "./json.js";

/** Text in a message. */
export interface TextContent {
	type: "text";
	text: string;
	/** Opaque provider replay data (openai-responses: a JSON `TextSignatureV1`). */
	textSignature?: string;
}

/** A model's reasoning, shown to the user and replayed to the same model (with its signature) on the next turn. */
export interface ThinkingContent {
	type: "thinking";
	thinking: string;
	/** Opaque replay payload (Anthropic signature, serialized reasoning item, or reasoning field name). */
	thinkingSignature?: string;
	/** Safety-redacted thinking: `thinkingSignature` holds the encrypted payload, `thinking` a placeholder. */
	redacted?: boolean;
}

/** An image in a message: base64 data and its MIME type. */
export interface ImageContent {
	type: "image";
	/** Base64 data without a `data:` prefix. */
	data: string;
	mimeType: string;
}

/** A call of a tool the model made: id, tool name and JSON arguments. */
export interface ToolCall {
	type: "toolCall";
	id: string;
	name: string;
	arguments: JsonObject;
	/** Gemini-style per-call signature; dropped on cross-model replay. */
	thoughtSignature?: string;
	/** OpenAI Responses namespaced/dynamic tools. */
	namespace?: string;
	/** Set when the final argument text was not a JSON object; `arguments` is then `{}`. */
	argumentsError?: string;
}

/** The parsed form of an openai-responses `textSignature`. */
export interface TextSignatureV1 {
	v: 1;
	id: string;
	phase?: "commentary" | "final_answer";
}
