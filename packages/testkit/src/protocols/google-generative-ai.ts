import type { ResolvedBlock, ResolvedTurn } from "../scenario/resolve.js";
import type { MockStopReason } from "../scenario/turn.js";
import { type ErrorSpec, type JsonReply, sseFrame, type WireProtocol } from "./protocol.js";

/**
 * Gemini's `generateContent` / `streamGenerateContent` (the Gemini API and Vertex AI share it). The model is
 * in the path (`…/models/<id>:streamGenerateContent?alt=sse`); a stream is SSE of `GenerateContentResponse`s.
 */
const PATH = /\/models\/([^/:]+):(stream)?[gG]enerateContent$/;

const FINISH_REASONS: Record<Exclude<MockStopReason, "error">, string> = {
	stop: "STOP",
	length: "MAX_TOKENS",
	toolUse: "STOP",
	stopSequence: "STOP",
	pauseTurn: "STOP",
	refusal: "SAFETY",
	contentFilter: "SAFETY",
};

/** Google's canonical status name per HTTP status. */
const STATUSES: Record<number, { status: string; message: string }> = {
	400: { status: "INVALID_ARGUMENT", message: "Request contains an invalid argument." },
	401: { status: "UNAUTHENTICATED", message: "API key not valid. Please pass a valid API key." },
	403: { status: "PERMISSION_DENIED", message: "The caller does not have permission." },
	404: { status: "NOT_FOUND", message: "models/mock is not found for API version v1beta." },
	429: { status: "RESOURCE_EXHAUSTED", message: "Resource has been exhausted (e.g. check quota)." },
	500: { status: "INTERNAL", message: "An internal error has occurred." },
	503: { status: "UNAVAILABLE", message: "The model is overloaded. Please try again later." },
};

function errorBody(error: ErrorSpec): unknown {
	const known = STATUSES[error.status] ?? {
		status: error.status >= 500 ? "INTERNAL" : "INVALID_ARGUMENT",
		message: `HTTP ${error.status}`,
	};
	return {
		error: { code: error.status, message: error.message ?? known.message, status: error.type ?? known.status },
	};
}

/** Gemini thought signatures are base64; the scripted signature is encoded so clients can replay it. */
function signatureOf(block: { signature: string }): string {
	return Buffer.from(block.signature).toString("base64");
}

function parseArgs(argumentsText: string): unknown {
	try {
		return JSON.parse(argumentsText);
	} catch {
		return {};
	}
}

function functionCallPart(block: Extract<ResolvedBlock, { type: "toolCall" }>): Record<string, unknown> {
	return { functionCall: { id: block.id, name: block.name, args: parseArgs(block.argumentsText) } };
}

/** `promptTokenCount` includes the cached tokens; thoughts are counted apart from the candidates. */
function usageMetadata(turn: ResolvedTurn): Record<string, unknown> {
	const { usage } = turn;
	const prompt = usage.input + usage.cacheRead;
	const candidates = usage.output - usage.reasoning;
	return {
		promptTokenCount: prompt,
		candidatesTokenCount: candidates,
		...(usage.reasoning > 0 ? { thoughtsTokenCount: usage.reasoning } : {}),
		...(usage.cacheRead > 0 ? { cachedContentTokenCount: usage.cacheRead } : {}),
		totalTokenCount: prompt + usage.output,
	};
}

function finishReason(turn: ResolvedTurn): string {
	return turn.rawStopReason ?? FINISH_REASONS[turn.stopReason as Exclude<MockStopReason, "error">];
}

function response(turn: ResolvedTurn, id: string, parts: unknown[], last: boolean): Record<string, unknown> {
	const candidate: Record<string, unknown> = { content: { role: "model", parts }, index: 0 };
	if (last) candidate.finishReason = finishReason(turn);
	return {
		candidates: [candidate],
		...(last ? { usageMetadata: usageMetadata(turn) } : {}),
		modelVersion: turn.model,
		responseId: id,
	};
}

export const googleGenerativeAi: WireProtocol = {
	name: "google-generative-ai",
	matches: (pathname) => PATH.test(pathname),
	isStreaming: (pathname) => PATH.exec(pathname)?.[2] === "stream",
	modelFromPath: (pathname) => PATH.exec(pathname)?.[1],
	requestIdHeader: "x-goog-request-id",

	*streamFrames(turn, ctx) {
		const id = ctx.newId("resp_mock_");
		const frames: unknown[][] = [];
		for (const block of turn.blocks) {
			if (block.type === "thinking") {
				block.pieces.forEach((piece, index) => {
					const last = index === block.pieces.length - 1;
					frames.push([{ text: piece, thought: true, ...(last ? { thoughtSignature: signatureOf(block) } : {}) }]);
				});
			} else if (block.type === "text") {
				for (const piece of block.pieces) frames.push([{ text: piece }]);
			} else if (block.type === "toolCall") {
				frames.push([functionCallPart(block)]);
			}
		}
		if (turn.stopReason === "error") {
			for (const parts of frames) yield sseFrame(response(turn, id, parts, false));
			yield sseFrame(errorBody({ status: 500, message: turn.error.message, type: turn.error.type }));
			return;
		}
		// The finish reason and usage ride on the last chunk, as Gemini sends them.
		if (frames.length === 0) frames.push([]);
		for (const [index, parts] of frames.entries()) {
			yield sseFrame(response(turn, id, parts, !turn.omitStop && index === frames.length - 1));
		}
	},

	jsonReply(turn, ctx): JsonReply {
		if (turn.stopReason === "error")
			return { status: 500, body: errorBody({ status: 500, message: turn.error.message }) };
		const parts = turn.blocks.flatMap((block): unknown[] => {
			if (block.type === "thinking")
				return [{ text: block.text, thought: true, thoughtSignature: signatureOf(block) }];
			if (block.type === "text") return [{ text: block.text }];
			if (block.type === "toolCall") return [functionCallPart(block)];
			return [];
		});
		return { status: 200, body: response(turn, ctx.newId("resp_mock_"), parts, true) };
	},

	errorBody,

	overflowBody(inputTokens, contextWindow) {
		const window = contextWindow ?? 1_048_576;
		const tokens = inputTokens ?? 1_100_000;
		return errorBody({
			status: 400,
			message: `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${window}).`,
		});
	},

	malformedFrame() {
		return 'data: {"candidates":[{"content":{"role":"model","parts":[{"text":\n\n';
	},
};
