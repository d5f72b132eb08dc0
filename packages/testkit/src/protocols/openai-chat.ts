import type { ResolvedTurn } from "../scenario/resolve.js";
import { splitIntoPieces } from "../scenario/resolve.js";
import type { MockStopReason } from "../scenario/turn.js";
import { openAiError, openAiErrorBody, openAiOverflowBody } from "./openai-errors.js";
import { type JsonReply, type ProtocolContext, sseFrame, type WireProtocol } from "./protocol.js";

const FINISH_REASONS: Record<Exclude<MockStopReason, "error">, string> = {
	stop: "stop",
	length: "length",
	toolUse: "tool_calls",
	stopSequence: "stop",
	pauseTurn: "stop",
	refusal: "content_filter",
	contentFilter: "content_filter",
};

function finishReason(turn: ResolvedTurn): string {
	return turn.rawStopReason ?? FINISH_REASONS[turn.stopReason as Exclude<MockStopReason, "error">];
}

/** Chat usage: `prompt_tokens` includes cached tokens, which are broken out in the details. */
function usageOf(turn: ResolvedTurn): Record<string, unknown> {
	const { usage } = turn;
	const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
	return {
		prompt_tokens: prompt,
		completion_tokens: usage.output,
		total_tokens: prompt + usage.output,
		prompt_tokens_details: {
			cached_tokens: usage.cacheRead,
			audio_tokens: 0,
			...(usage.cacheWrite > 0 ? { cache_write_tokens: usage.cacheWrite } : {}),
		},
		completion_tokens_details: {
			reasoning_tokens: usage.reasoning,
			audio_tokens: 0,
			accepted_prediction_tokens: 0,
			rejected_prediction_tokens: 0,
		},
	};
}

function wantsUsage(ctx: ProtocolContext): boolean {
	const options = ctx.requestBody.stream_options as { include_usage?: unknown } | undefined;
	return options?.include_usage === true;
}

export const openAiChat: WireProtocol = {
	name: "openai-chat",
	matches: (pathname) => pathname.endsWith("/chat/completions") && !pathname.startsWith("/mistral/"),
	requestIdHeader: "x-request-id",

	*streamFrames(turn, ctx) {
		const id = ctx.newId("chatcmpl-mock");
		const withUsage = wantsUsage(ctx);
		const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
			sseFrame({
				id,
				object: "chat.completion.chunk",
				created: ctx.createdAt,
				model: turn.model,
				system_fingerprint: "fp_mock",
				choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
				...(withUsage ? { usage: null } : {}),
			});
		yield chunk({ role: "assistant", content: "", refusal: null });
		const reasoningField = turn.reasoningField;
		let toolIndex = 0;
		for (const block of turn.blocks) {
			switch (block.type) {
				case "thinking":
					for (const piece of block.pieces) yield chunk({ [reasoningField]: piece });
					break;
				case "text":
					for (const piece of block.pieces) yield chunk({ content: piece });
					break;
				case "toolCall": {
					const index = toolIndex++;
					yield chunk({
						tool_calls: [
							{ index, id: block.id, type: "function", function: { name: block.name, arguments: "" } },
						],
					});
					for (const piece of block.pieces)
						yield chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
					break;
				}
				case "redactedThinking":
					break;
			}
		}
		for (const piece of splitIntoPieces(turn.refusal ?? "", 1)) yield chunk({ refusal: piece });
		if (turn.stopReason === "error") {
			yield sseFrame({ error: openAiError({ status: 500, ...turn.error }) });
			return;
		}
		if (!turn.omitStop) yield chunk({}, finishReason(turn));
		if (withUsage) {
			yield sseFrame({
				id,
				object: "chat.completion.chunk",
				created: ctx.createdAt,
				model: turn.model,
				system_fingerprint: "fp_mock",
				choices: [],
				usage: usageOf(turn),
			});
		}
		yield sseFrame("[DONE]");
	},

	jsonReply(turn, ctx): JsonReply {
		if (turn.stopReason === "error") return { status: 500, body: openAiErrorBody({ status: 500, ...turn.error }) };
		const text = turn.blocks.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
		const thinking = turn.blocks.flatMap((block) => (block.type === "thinking" ? [block.text] : [])).join("");
		const toolCalls = turn.blocks.flatMap((block) =>
			block.type === "toolCall"
				? [{ id: block.id, type: "function", function: { name: block.name, arguments: block.argumentsText } }]
				: [],
		);
		const message: Record<string, unknown> = {
			role: "assistant",
			content: text === "" ? null : text,
			refusal: turn.refusal ?? null,
			annotations: [],
			...(thinking === "" ? {} : { [turn.reasoningField]: thinking }),
			...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
		};
		return {
			status: 200,
			body: {
				id: ctx.newId("chatcmpl-mock"),
				object: "chat.completion",
				created: ctx.createdAt,
				model: turn.model,
				system_fingerprint: "fp_mock",
				choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(turn) }],
				usage: usageOf(turn),
			},
		};
	},

	errorBody: openAiErrorBody,

	overflowBody(inputTokens, contextWindow) {
		const window = contextWindow ?? 128_000;
		const tokens = inputTokens ?? 130_000;
		return openAiOverflowBody(
			`This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
			"messages",
		);
	},

	malformedFrame() {
		return 'data: {"id":"chatcmpl-broken","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":\n\n';
	},
};
