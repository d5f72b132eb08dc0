import type { ResolvedTurn, TurnContext } from "../scenario/resolve.js";

/** A wire protocol the mock LLM server speaks; the request path selects it. */
export type ProtocolName =
	| "anthropic-messages"
	| "openai-chat"
	| "openai-responses"
	| "google-generative-ai"
	| "bedrock-converse"
	| "mistral-chat"
	| "pi-messages";

/** What an HTTP error response should say; unset fields take the provider's usual wording. */
export interface ErrorSpec {
	status: number;
	message?: string;
	type?: string;
	code?: string;
}

export interface ProtocolContext extends TurnContext {
	/** The parsed request body (an empty object when the body was not a JSON object). */
	requestBody: Record<string, unknown>;
}

/** A JSON response with its status code. */
export interface JsonReply {
	status: number;
	body: unknown;
}

/** One wire protocol: how a resolved turn, an error and an overflow look on the wire. */
export interface WireProtocol {
	readonly name: ProtocolName;
	/** Whether a POST to this path speaks this protocol (the first matching protocol wins). */
	matches(pathname: string): boolean;
	/** Whether the request asks for a stream; default: `stream: true` in the body. */
	isStreaming?(pathname: string, body: Record<string, unknown>): boolean;
	/** The model a request names, when it is in the path rather than the body. */
	modelFromPath?(pathname: string): string | undefined;
	/** Content type of a streaming reply; default `text/event-stream; charset=utf-8`. */
	readonly streamContentType?: string;
	/** Response header carrying the request id (`request-id` for Anthropic, `x-request-id` for OpenAI). */
	readonly requestIdHeader: string;
	/** The frames of a streaming reply (SSE text, or binary event-stream messages), generated lazily so huge turns stay cheap. */
	streamFrames(turn: ResolvedTurn, ctx: ProtocolContext): Iterable<string | Uint8Array>;
	/** The non-streaming reply. */
	jsonReply(turn: ResolvedTurn, ctx: ProtocolContext): JsonReply;
	/** An HTTP error body in the provider's error format. */
	errorBody(error: ErrorSpec, ctx: ProtocolContext): unknown;
	/** The provider's context-overflow error (always HTTP 400). */
	overflowBody(inputTokens: number | undefined, contextWindow: number | undefined, ctx: ProtocolContext): unknown;
	/** A frame whose JSON does not parse, shaped so the SDK tries to parse it. */
	malformedFrame(): string | Uint8Array;
}

/** One SSE frame; `event` adds the `event:` line the provider sends with it. */
export function sseFrame(data: unknown, event?: string): string {
	const line = `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
	return event === undefined ? line : `event: ${event}\n${line}`;
}
