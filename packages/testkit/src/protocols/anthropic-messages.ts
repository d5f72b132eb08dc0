import type { ResolvedBlock, ResolvedTurn } from "../scenario/resolve.js";
import type { MockStopReason } from "../scenario/turn.js";
import { type ErrorSpec, type JsonReply, type ProtocolContext, sseFrame, type WireProtocol } from "./protocol.js";

const STOP_REASONS: Record<Exclude<MockStopReason, "error">, string> = {
	stop: "end_turn",
	length: "max_tokens",
	toolUse: "tool_use",
	stopSequence: "stop_sequence",
	pauseTurn: "pause_turn",
	refusal: "refusal",
	contentFilter: "refusal",
};

/** Anthropic's `error.type` and message per HTTP status. */
const ERRORS: Record<number, { type: string; message: string }> = {
	400: { type: "invalid_request_error", message: "Invalid request." },
	401: { type: "authentication_error", message: "invalid x-api-key" },
	403: { type: "permission_error", message: "Your API key does not have permission to use the specified resource." },
	404: { type: "not_found_error", message: "Not found." },
	413: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." },
	429: { type: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit." },
	500: { type: "api_error", message: "Internal server error" },
	529: { type: "overloaded_error", message: "Overloaded" },
};

function errorEnvelope(type: string, message: string, ctx: ProtocolContext): unknown {
	return { type: "error", error: { type, message }, request_id: ctx.newId("req_mock_") };
}

function errorBody(error: ErrorSpec, ctx: ProtocolContext): unknown {
	const known = ERRORS[error.status] ?? {
		type: error.status >= 500 ? "api_error" : "invalid_request_error",
		message: `HTTP ${error.status}`,
	};
	return errorEnvelope(error.type ?? known.type, error.message ?? known.message, ctx);
}

function startUsage(turn: ResolvedTurn): Record<string, unknown> {
	const { usage } = turn;
	return {
		input_tokens: usage.input,
		cache_creation_input_tokens: usage.cacheWrite,
		cache_read_input_tokens: usage.cacheRead,
		cache_creation: {
			ephemeral_5m_input_tokens: usage.cacheWrite - usage.cacheWrite1h,
			ephemeral_1h_input_tokens: usage.cacheWrite1h,
		},
		output_tokens: Math.min(1, usage.output),
		service_tier: "standard",
	};
}

function finalUsage(turn: ResolvedTurn): Record<string, unknown> {
	const { usage } = turn;
	return {
		input_tokens: usage.input,
		cache_creation_input_tokens: usage.cacheWrite,
		cache_read_input_tokens: usage.cacheRead,
		output_tokens: usage.output,
		...(usage.reasoning > 0 ? { output_tokens_details: { thinking_tokens: usage.reasoning } } : {}),
	};
}

function stopFields(turn: ResolvedTurn): Record<string, unknown> {
	const refused = turn.stopReason === "refusal" || turn.stopReason === "contentFilter";
	return {
		stop_reason: turn.rawStopReason ?? STOP_REASONS[turn.stopReason as Exclude<MockStopReason, "error">],
		stop_sequence: null,
		stop_details: refused ? { type: "refusal", category: null, explanation: turn.refusal ?? null } : null,
	};
}

function parseInput(argumentsText: string): unknown {
	try {
		return JSON.parse(argumentsText);
	} catch {
		return {};
	}
}

/** The finished content block, as in a non-streaming reply. */
function finalBlock(block: ResolvedBlock): Record<string, unknown> {
	switch (block.type) {
		case "thinking":
			return { type: "thinking", thinking: block.text, signature: block.signature };
		case "redactedThinking":
			return { type: "redacted_thinking", data: block.data };
		case "text":
			return { type: "text", text: block.text };
		case "toolCall":
			return { type: "tool_use", id: block.id, name: block.name, input: parseInput(block.argumentsText) };
	}
}

/** The block as `content_block_start` announces it, before any delta. */
function emptyBlock(block: ResolvedBlock): Record<string, unknown> {
	switch (block.type) {
		case "thinking":
			return { type: "thinking", thinking: "", signature: "" };
		case "redactedThinking":
			return finalBlock(block);
		case "text":
			return { type: "text", text: "" };
		case "toolCall":
			return { type: "tool_use", id: block.id, name: block.name, input: {} };
	}
}

/**
 * `content_block_delta` frames, one per piece, written as text: the same bytes `sseFrame` gives for the
 * object, without building and serializing one per frame (a benchmark's stream has hundreds of thousands,
 * and the server's cost is paid inside every measured run).
 */
function* deltaFrames(index: number, type: string, field: string, pieces: readonly string[]): Generator<string> {
	const head = `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":{"type":"${type}","${field}":`;
	for (const piece of pieces) yield `${head}${JSON.stringify(piece)}}}\n\n`;
}

function* blockDeltas(block: ResolvedBlock, index: number): Generator<string> {
	switch (block.type) {
		case "thinking":
			yield* deltaFrames(index, "thinking_delta", "thinking", block.pieces);
			yield* deltaFrames(index, "signature_delta", "signature", [block.signature]);
			return;
		case "text":
			yield* deltaFrames(index, "text_delta", "text", block.pieces);
			return;
		case "toolCall":
			yield* deltaFrames(index, "input_json_delta", "partial_json", block.pieces);
			return;
		case "redactedThinking":
			return;
	}
}

function messageShell(turn: ResolvedTurn, id: string): Record<string, unknown> {
	return { id, type: "message", role: "assistant", model: turn.model, content: [] };
}

export const anthropicMessages: WireProtocol = {
	name: "anthropic-messages",
	matches: (pathname) => pathname.endsWith("/messages"),
	requestIdHeader: "request-id",

	*streamFrames(turn, ctx) {
		const message = {
			...messageShell(turn, ctx.newId("msg_mock_")),
			stop_reason: null,
			stop_sequence: null,
			usage: startUsage(turn),
		};
		yield sseFrame({ type: "message_start", message }, "message_start");
		yield sseFrame({ type: "ping" }, "ping");
		for (const [index, block] of turn.blocks.entries()) {
			yield sseFrame(
				{ type: "content_block_start", index, content_block: emptyBlock(block) },
				"content_block_start",
			);
			yield* blockDeltas(block, index);
			yield sseFrame({ type: "content_block_stop", index }, "content_block_stop");
		}
		if (turn.stopReason === "error") {
			const { error } = turn;
			yield sseFrame(errorEnvelope(error.type ?? "overloaded_error", error.message ?? "Overloaded", ctx), "error");
			return;
		}
		yield sseFrame({ type: "message_delta", delta: stopFields(turn), usage: finalUsage(turn) }, "message_delta");
		if (!turn.omitStop) yield sseFrame({ type: "message_stop" }, "message_stop");
	},

	jsonReply(turn, ctx): JsonReply {
		if (turn.stopReason === "error") {
			const status = turn.error.type === "overloaded_error" || turn.error.type === undefined ? 529 : 500;
			return { status, body: errorBody({ status, type: turn.error.type, message: turn.error.message }, ctx) };
		}
		const body = {
			...messageShell(turn, ctx.newId("msg_mock_")),
			content: turn.blocks.map(finalBlock),
			...stopFields(turn),
			usage: { ...finalUsage(turn), cache_creation: startUsage(turn).cache_creation, service_tier: "standard" },
		};
		return { status: 200, body };
	},

	errorBody,

	overflowBody(inputTokens, contextWindow, ctx) {
		const window = contextWindow ?? 200_000;
		const tokens = inputTokens ?? 213_462;
		return errorEnvelope("invalid_request_error", `prompt is too long: ${tokens} tokens > ${window} maximum`, ctx);
	},

	malformedFrame() {
		return 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":\n\n';
	},
};
