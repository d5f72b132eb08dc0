/**
 * The provider-neutral scripted turn. One turn answers one request; each wire protocol renders it
 * in its own format, so a test can script a reply once and replay it against any adapter.
 */

/** Text given literally, as explicit delta pieces, or generated: `{ tokens: N }` yields N words. */
export type ScriptedText = string | readonly string[] | { readonly tokens: number };

/** Neutral stop reasons; each protocol maps them to its own wire value (see docs/testkit.md). */
export type MockStopReason =
	| "stop"
	| "length"
	| "toolUse"
	| "stopSequence"
	| "pauseTurn"
	| "refusal"
	| "contentFilter"
	| "error";

/** Token counts a scripted turn reports, in each protocol's own usage format. */
export interface MockUsage {
	/** Input tokens not read from or written to the cache. */
	input?: number;
	output?: number;
	cacheRead?: number;
	cacheWrite?: number;
	/** Anthropic only: the part of `cacheWrite` written with the 1h TTL. */
	cacheWrite1h?: number;
	/** Reasoning tokens, reported inside `output` by every protocol. */
	reasoning?: number;
}

/** A tool call a scripted turn makes: its name and arguments (ids generated when omitted). */
export interface MockToolCall {
	/** Call id (`toolu_…` / `call_…`); generated when omitted. */
	id?: string;
	/** Responses only: the function_call item id (`fc_…`); generated when omitted. */
	itemId?: string;
	name: string;
	/** A value is sent as its JSON text; a string is sent verbatim (so malformed JSON is possible). */
	arguments?: unknown;
	/** Characters of argument text per delta (default 8). */
	chunkSize?: number;
}

/** Thinking with an optional Anthropic signature (generated when omitted). */
export interface MockThinking {
	text: ScriptedText;
	signature?: string;
}

/** One content block, for turns whose block order matters (e.g. text between two tool calls). */
export type MockBlock =
	| { type: "thinking"; text: ScriptedText; signature?: string }
	| { type: "redactedThinking"; data: string }
	| { type: "text"; text: ScriptedText }
	| ({ type: "toolCall" } & MockToolCall);

/** Provider error details for `stopReason: "error"` (sent in-stream) and for HTTP faults. */
export interface MockErrorDetails {
	message?: string;
	/** Anthropic `error.type` / OpenAI `error.type`. */
	type?: string;
	/** OpenAI `error.code`. */
	code?: string;
	/** Responses only: send a bare `error` event instead of `response.failed`. */
	asErrorEvent?: boolean;
}

/** Where a stream is cut: after this many body bytes, or after this many SSE events. */
export type CutPoint =
	| { afterBytes: number; afterEvents?: undefined }
	| { afterEvents: number; afterBytes?: undefined };

/**
 * A failure the mock server produces instead of (or in the middle of) a reply: an HTTP error, a context overflow, a cut
 * or stalled stream, or malformed events.
 */
export type MockFault =
	/** An HTTP error in the provider's real error format. `body` replaces the generated body. */
	| {
			kind: "http";
			status: number;
			message?: string;
			type?: string;
			code?: string;
			body?: unknown;
			headers?: Record<string, string>;
			/** Seconds (or an HTTP date) sent as `retry-after`. */
			retryAfter?: number | string;
	  }
	/** The provider's real context-overflow error (HTTP 400). */
	| { kind: "overflow"; inputTokens?: number; contextWindow?: number }
	/** Send the body up to the cut point, then destroy the socket. */
	| ({ kind: "disconnect" } & CutPoint)
	/** Send the body up to the cut point, then end the response cleanly. */
	| ({ kind: "truncate" } & CutPoint)
	/** Hang until the client aborts or the server closes: after the cut point, or before the headers without one. */
	| ({ kind: "stall" } & Partial<CutPoint>)
	/** Leave out the event that ends the turn (Anthropic `message_stop`, Chat's `finish_reason` chunk, Responses' terminal event). */
	| { kind: "omitStop" }
	| { kind: "malformed"; afterEvents?: number; line?: string };

/** A scripted reply. Shorthand fields render in the order thinking, redacted thinking, text, tool calls. */
export interface MockTurn {
	thinking?: ScriptedText | MockThinking;
	/** Anthropic `redacted_thinking` data / Responses `encrypted_content`; ignored by Chat Completions. */
	redactedThinking?: string;
	text?: ScriptedText;
	toolCalls?: readonly MockToolCall[];
	/** Explicit block order; when set, the shorthand fields above are ignored. */
	blocks?: readonly MockBlock[];
	/** Refusal text: Anthropic `stop_details.explanation`, Chat `delta.refusal`, Responses refusal part. */
	refusal?: string;
	usage?: MockUsage;
	/** Default: `toolUse` when the turn has tool calls, else `stop`. */
	stopReason?: MockStopReason;
	/** Sent instead of the mapped stop reason (Responses: `status` or `status:reason`). */
	rawStopReason?: string;
	error?: MockErrorDetails;
	/** Words of text/thinking per delta (default 1). */
	chunkSize?: number;
	/**
	 * Streams at most this many SSE frames per second instead of all at once. Each text or thinking
	 * delta is one frame, so with `chunkSize: 1` this is the model's tokens per second.
	 */
	framesPerSecond?: number;
	/** Chat Completions: the delta field that carries thinking (default `reasoning_content`). */
	reasoningField?: "reasoning_content" | "reasoning";
	/** The model name echoed back; defaults to the request's `model`. */
	model?: string;
	fault?: MockFault;
}

/** A response written verbatim, for wire shapes the turn model does not cover. */
export interface RawTurn {
	raw: string | readonly string[];
	status?: number;
	headers?: Record<string, string>;
}

/** One scripted answer of the mock server: a turn it encodes in the request's protocol, or raw bytes. */
export type ScriptedReply = MockTurn | RawTurn;
