import type { ResolvedTurn, TurnContext } from "../scenario/resolve.js";

export type ProtocolName = "anthropic-messages" | "openai-chat" | "openai-responses";

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
	/** Requests whose path ends with this suffix speak this protocol. */
	readonly pathSuffix: string;
	/** Response header carrying the request id (`request-id` for Anthropic, `x-request-id` for OpenAI). */
	readonly requestIdHeader: string;
	/** SSE frames for a streaming reply, generated lazily so huge turns stay cheap. */
	streamFrames(turn: ResolvedTurn, ctx: ProtocolContext): Iterable<string>;
	/** The non-streaming reply. */
	jsonReply(turn: ResolvedTurn, ctx: ProtocolContext): JsonReply;
	/** An HTTP error body in the provider's error format. */
	errorBody(error: ErrorSpec, ctx: ProtocolContext): unknown;
	/** The provider's context-overflow error (always HTTP 400). */
	overflowBody(inputTokens: number | undefined, contextWindow: number | undefined, ctx: ProtocolContext): unknown;
	/** A frame whose JSON does not parse, shaped so the SDK tries to parse it. */
	malformedFrame(): string;
}

/** One SSE frame; `event` adds the `event:` line the provider sends with it. */
export function sseFrame(data: unknown, event?: string): string {
	const line = `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
	return event === undefined ? line : `event: ${event}\n${line}`;
}
