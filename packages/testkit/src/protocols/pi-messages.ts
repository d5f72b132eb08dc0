import type { ResolvedBlock, ResolvedTurn } from "../scenario/resolve.js";
import type { MockStopReason } from "../scenario/turn.js";
import { type ErrorSpec, type JsonReply, type ProtocolContext, sseFrame, type WireProtocol } from "./protocol.js";

/**
 * Pi's own `pi-messages` protocol, which Radius gateways speak: one POST of `{ model, context, options }`
 * to `<baseUrl>/messages`, answered with server-sent events that are pi's assistant-message events (each
 * block's `_end` carries its final content), ending with `done` or `error`. The backend reports usage with
 * its cost; the mock prices tokens at `PI_MESSAGES_PRICES` (dollars per million). The path is Anthropic's,
 * so the mock serves it under a `/pi` prefix: point the model's base URL at `server.url("/pi/v1")`.
 */
const PREFIX = "/pi/";

/** Dollars per million tokens the mock backend charges. */
export const PI_MESSAGES_PRICES = { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 } as const;

const REASONS: Record<Exclude<MockStopReason, "error">, "stop" | "length" | "toolUse"> = {
	stop: "stop",
	length: "length",
	toolUse: "toolUse",
	stopSequence: "stop",
	pauseTurn: "stop",
	refusal: "stop",
	contentFilter: "stop",
};

function usageOf(turn: ResolvedTurn): Record<string, unknown> {
	const { input, output, cacheRead, cacheWrite } = turn.usage;
	const price = (tokens: number, perMillion: number) => (tokens * perMillion) / 1_000_000;
	const cost = {
		input: price(input, PI_MESSAGES_PRICES.input),
		output: price(output, PI_MESSAGES_PRICES.output),
		cacheRead: price(cacheRead, PI_MESSAGES_PRICES.cacheRead),
		cacheWrite: price(cacheWrite, PI_MESSAGES_PRICES.cacheWrite),
	};
	return {
		input,
		output,
		cacheRead,
		cacheWrite,
		totalTokens: input + output + cacheRead + cacheWrite,
		cost: { ...cost, total: cost.input + cost.output + cost.cacheRead + cost.cacheWrite },
	};
}

/** The final arguments object; a scripted fragment that is not JSON ends as `{}`, as a backend would send. */
function finalArguments(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return {};
	}
}

function* blockEvents(block: ResolvedBlock, contentIndex: number): Generator<string> {
	const event = (payload: Record<string, unknown>) => sseFrame({ ...payload, contentIndex });
	switch (block.type) {
		case "thinking":
			yield event({ type: "thinking_start" });
			for (const delta of block.pieces) yield event({ type: "thinking_delta", delta });
			yield event({ type: "thinking_end", content: block.text, contentSignature: block.signature });
			return;
		case "redactedThinking":
			yield event({ type: "thinking_start" });
			yield event({ type: "thinking_end", content: "", contentSignature: block.data, redacted: true });
			return;
		case "text":
			yield event({ type: "text_start" });
			for (const delta of block.pieces) yield event({ type: "text_delta", delta });
			yield event({ type: "text_end", content: block.text });
			return;
		case "toolCall":
			yield event({ type: "toolcall_start", id: block.id, toolName: block.name });
			for (const delta of block.pieces) yield event({ type: "toolcall_delta", delta });
			yield event({
				type: "toolcall_end",
				toolCall: {
					type: "toolCall",
					id: block.id,
					name: block.name,
					arguments: finalArguments(block.argumentsText),
				},
			});
			return;
	}
}

function errorBody(error: ErrorSpec): unknown {
	return {
		error: {
			message: error.message ?? (error.status === 401 ? "Invalid credentials" : `HTTP ${error.status}`),
			...(error.code !== undefined ? { code: error.code } : {}),
		},
	};
}

export const piMessages: WireProtocol = {
	name: "pi-messages",
	matches: (pathname) => pathname.startsWith(PREFIX) && pathname.endsWith("/messages"),
	// Every pi-messages response is a stream.
	isStreaming: () => true,
	requestIdHeader: "x-request-id",

	*streamFrames(turn, ctx: ProtocolContext) {
		yield sseFrame({ type: "start" });
		for (const [index, block] of turn.blocks.entries()) yield* blockEvents(block, index);
		if (turn.omitStop) return;
		const terminal = { usage: usageOf(turn), responseId: ctx.newId("resp_mock_"), responseModel: turn.model };
		if (turn.stopReason === "error") {
			yield sseFrame({
				type: "error",
				reason: "error",
				errorMessage: turn.error.message ?? "Overloaded",
				...terminal,
			});
			return;
		}
		yield sseFrame({ type: "done", reason: turn.rawStopReason ?? REASONS[turn.stopReason], ...terminal });
	},

	// The protocol has no non-streaming form; the mock answers as a backend refusing one would.
	jsonReply(): JsonReply {
		return { status: 400, body: errorBody({ status: 400, message: "pi-messages responses are always streamed" }) };
	},

	errorBody,

	overflowBody(inputTokens, contextWindow) {
		const window = contextWindow ?? 200_000;
		const tokens = inputTokens ?? 213_462;
		return errorBody({
			status: 400,
			message: `prompt is too long: ${tokens} tokens > ${window} maximum`,
			code: "context_length_exceeded",
		});
	},

	malformedFrame() {
		return 'data: {"type":"text_delta","contentIndex":0,"delta":\n\n';
	},
};
