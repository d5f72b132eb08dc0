import type { ResolvedTurn } from "../scenario/resolve.js";
import type { MockStopReason } from "../scenario/turn.js";
import { type ErrorSpec, type JsonReply, type ProtocolContext, sseFrame, type WireProtocol } from "./protocol.js";

/**
 * Mistral's chat completions (`/v1/chat/completions`), which differ from OpenAI's in their chunks: thoughts
 * arrive as `thinking` content chunks, usage reports cached prompt tokens, and errors have their own shape.
 * The path is the OpenAI one, so the mock serves Mistral under a `/mistral` prefix: point the SDK's
 * server URL at `server.url("/mistral")`.
 */
const PREFIX = "/mistral/";

const FINISH_REASONS: Record<Exclude<MockStopReason, "error">, string> = {
	stop: "stop",
	length: "length",
	toolUse: "tool_calls",
	stopSequence: "stop",
	pauseTurn: "stop",
	refusal: "stop",
	contentFilter: "stop",
};

const ERRORS: Record<number, { type: string; message: string; code: string }> = {
	400: { type: "invalid_request_error", message: "Invalid request", code: "3000" },
	401: { type: "authentication_error", message: "Unauthorized", code: "1000" },
	404: { type: "invalid_request_error", message: "Invalid model", code: "1500" },
	429: { type: "rate_limited", message: "Requests rate limit exceeded", code: "1300" },
	500: { type: "internal_server_error", message: "Internal server error", code: "3000" },
};

function errorBody(error: ErrorSpec): unknown {
	const known = ERRORS[error.status] ?? {
		type: "invalid_request_error",
		message: `HTTP ${error.status}`,
		code: "3000",
	};
	return {
		object: "error",
		message: error.message ?? known.message,
		type: error.type ?? known.type,
		param: null,
		code: error.code ?? known.code,
	};
}

/** `prompt_tokens` includes the cached tokens, which are broken out in the details. */
function usageOf(turn: ResolvedTurn): Record<string, unknown> {
	const { usage } = turn;
	const prompt = usage.input + usage.cacheRead;
	return {
		prompt_tokens: prompt,
		completion_tokens: usage.output,
		total_tokens: prompt + usage.output,
		...(usage.cacheRead > 0 ? { prompt_tokens_details: { cached_tokens: usage.cacheRead } } : {}),
	};
}

function finishReason(turn: ResolvedTurn): string {
	if (turn.stopReason === "error") return "error";
	return turn.rawStopReason ?? FINISH_REASONS[turn.stopReason];
}

function chunk(turn: ResolvedTurn, id: string, ctx: ProtocolContext, delta: unknown, finish: string | null = null) {
	return {
		id,
		object: "chat.completion.chunk",
		created: ctx.createdAt,
		model: turn.model,
		choices: [{ index: 0, delta, finish_reason: finish }],
	};
}

export const mistralChat: WireProtocol = {
	name: "mistral-chat",
	matches: (pathname) => pathname.startsWith(PREFIX) && pathname.endsWith("/chat/completions"),
	requestIdHeader: "x-request-id",

	*streamFrames(turn, ctx) {
		const id = ctx.newId("cmpl-mock");
		yield sseFrame(chunk(turn, id, ctx, { role: "assistant", content: "" }));
		let toolIndex = 0;
		for (const block of turn.blocks) {
			if (block.type === "thinking") {
				for (const piece of block.pieces) {
					yield sseFrame(
						chunk(turn, id, ctx, { content: [{ type: "thinking", thinking: [{ type: "text", text: piece }] }] }),
					);
				}
			} else if (block.type === "text") {
				for (const piece of block.pieces) yield sseFrame(chunk(turn, id, ctx, { content: piece }));
			} else if (block.type === "toolCall") {
				const index = toolIndex++;
				for (const [position, piece] of block.pieces.entries()) {
					const call =
						position === 0
							? { id: block.id, function: { name: block.name, arguments: piece }, index }
							: { function: { name: block.name, arguments: piece }, index };
					yield sseFrame(chunk(turn, id, ctx, { tool_calls: [call] }));
				}
			}
		}
		if (turn.omitStop) return;
		yield sseFrame({ ...chunk(turn, id, ctx, { content: "" }, finishReason(turn)), usage: usageOf(turn) });
		yield sseFrame("[DONE]");
	},

	jsonReply(turn, ctx): JsonReply {
		if (turn.stopReason === "error")
			return { status: 500, body: errorBody({ status: 500, message: turn.error.message }) };
		const content = turn.blocks.flatMap((block): unknown[] => {
			if (block.type === "thinking") return [{ type: "thinking", thinking: [{ type: "text", text: block.text }] }];
			if (block.type === "text") return [{ type: "text", text: block.text }];
			return [];
		});
		const toolCalls = turn.blocks.flatMap((block) =>
			block.type === "toolCall"
				? [{ id: block.id, type: "function", function: { name: block.name, arguments: block.argumentsText } }]
				: [],
		);
		return {
			status: 200,
			body: {
				id: ctx.newId("cmpl-mock"),
				object: "chat.completion",
				created: ctx.createdAt,
				model: turn.model,
				choices: [
					{
						index: 0,
						message: { role: "assistant", content, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
						finish_reason: finishReason(turn),
					},
				],
				usage: usageOf(turn),
			},
		};
	},

	errorBody,

	overflowBody(inputTokens, contextWindow) {
		const window = contextWindow ?? 131_072;
		const tokens = inputTokens ?? 140_000;
		return errorBody({
			status: 400,
			type: "invalid_request_message_error",
			code: "3051",
			message: `Prompt contains ${tokens} tokens and 0 draft tokens, too large for model with ${window} maximum context length`,
		});
	},

	malformedFrame() {
		return 'data: {"id":"cmpl-broken","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":\n\n';
	},
};
