import type { ResolvedBlock, ResolvedTurn } from "../scenario/resolve.js";
import type { MockStopReason } from "../scenario/turn.js";
import { eventMessage, exceptionMessage } from "./aws-event-stream.js";
import type { ErrorSpec, JsonReply, WireProtocol } from "./protocol.js";

/**
 * Amazon Bedrock's Converse API: `POST /model/<id>/converse-stream` answers in AWS event-stream binary
 * framing, `POST /model/<id>/converse` with JSON. The model id is in the path (URL-encoded).
 */
const PATH = /\/model\/([^/]+)\/converse(-stream)?$/;

const STOP_REASONS: Record<Exclude<MockStopReason, "error">, string> = {
	stop: "end_turn",
	length: "max_tokens",
	toolUse: "tool_use",
	stopSequence: "stop_sequence",
	pauseTurn: "end_turn",
	refusal: "content_filtered",
	contentFilter: "guardrail_intervened",
};

/** Bedrock's modeled error names per HTTP status; the SDK reads the name from `__type`. */
const ERRORS: Record<number, { type: string; message: string }> = {
	400: { type: "ValidationException", message: "The request is invalid." },
	403: { type: "AccessDeniedException", message: "You don't have access to the model with the specified model ID." },
	404: { type: "ResourceNotFoundException", message: "The model does not exist." },
	429: { type: "ThrottlingException", message: "Too many requests, please wait before trying again." },
	500: { type: "InternalServerException", message: "The server encountered an internal error." },
	503: { type: "ServiceUnavailableException", message: "The service is unavailable. Try again later." },
};

function errorBody(error: ErrorSpec): unknown {
	const known = ERRORS[error.status] ?? {
		type: error.status >= 500 ? "InternalServerException" : "ValidationException",
		message: `HTTP ${error.status}`,
	};
	return { __type: error.type ?? known.type, message: error.message ?? known.message };
}

function parseInput(argumentsText: string): unknown {
	try {
		return JSON.parse(argumentsText);
	} catch {
		return {};
	}
}

/** Bedrock's `inputTokens` leaves out cache reads and writes, which are reported on their own. */
function usageOf(turn: ResolvedTurn): Record<string, unknown> {
	const { usage } = turn;
	return {
		inputTokens: usage.input,
		outputTokens: usage.output,
		totalTokens: usage.input + usage.output + usage.cacheRead + usage.cacheWrite,
		...(usage.cacheRead > 0 ? { cacheReadInputTokens: usage.cacheRead } : {}),
		...(usage.cacheWrite > 0 ? { cacheWriteInputTokens: usage.cacheWrite } : {}),
	};
}

function stopReason(turn: ResolvedTurn): string {
	return turn.rawStopReason ?? STOP_REASONS[turn.stopReason as Exclude<MockStopReason, "error">];
}

function* blockEvents(block: ResolvedBlock, index: number): Generator<Buffer> {
	const delta = (payload: unknown) => eventMessage("contentBlockDelta", { contentBlockIndex: index, delta: payload });
	switch (block.type) {
		case "thinking":
			for (const piece of block.pieces) yield delta({ reasoningContent: { text: piece } });
			yield delta({ reasoningContent: { signature: block.signature } });
			break;
		case "redactedThinking":
			yield delta({ reasoningContent: { redactedContent: Buffer.from(block.data).toString("base64") } });
			break;
		case "text":
			for (const piece of block.pieces) yield delta({ text: piece });
			break;
		case "toolCall":
			yield eventMessage("contentBlockStart", {
				contentBlockIndex: index,
				start: { toolUse: { toolUseId: block.id, name: block.name } },
			});
			for (const piece of block.pieces) yield delta({ toolUse: { input: piece } });
			break;
	}
	yield eventMessage("contentBlockStop", { contentBlockIndex: index });
}

function finalBlock(block: ResolvedBlock): unknown {
	switch (block.type) {
		case "thinking":
			return { reasoningContent: { reasoningText: { text: block.text, signature: block.signature } } };
		case "redactedThinking":
			return { reasoningContent: { redactedContent: Buffer.from(block.data).toString("base64") } };
		case "text":
			return { text: block.text };
		case "toolCall":
			return { toolUse: { toolUseId: block.id, name: block.name, input: parseInput(block.argumentsText) } };
	}
}

export const bedrockConverse: WireProtocol = {
	name: "bedrock-converse",
	matches: (pathname) => PATH.test(pathname),
	isStreaming: (pathname) => PATH.exec(pathname)?.[2] === "-stream",
	modelFromPath: (pathname) => {
		const id = PATH.exec(pathname)?.[1];
		return id === undefined ? undefined : decodeURIComponent(id);
	},
	requestIdHeader: "x-amzn-requestid",
	streamContentType: "application/vnd.amazon.eventstream",

	*streamFrames(turn) {
		yield eventMessage("messageStart", { role: "assistant" });
		for (const [index, block] of turn.blocks.entries()) yield* blockEvents(block, index);
		if (turn.stopReason === "error") {
			yield exceptionMessage(
				turn.error.type ?? "modelStreamErrorException",
				turn.error.message ?? "The model stream failed.",
			);
			return;
		}
		if (turn.omitStop) return;
		yield eventMessage("messageStop", { stopReason: stopReason(turn) });
		yield eventMessage("metadata", { usage: usageOf(turn), metrics: { latencyMs: 1 } });
	},

	jsonReply(turn): JsonReply {
		if (turn.stopReason === "error")
			return { status: 500, body: errorBody({ status: 500, message: turn.error.message }) };
		return {
			status: 200,
			body: {
				output: { message: { role: "assistant", content: turn.blocks.map(finalBlock) } },
				stopReason: stopReason(turn),
				usage: usageOf(turn),
				metrics: { latencyMs: 1 },
			},
		};
	},

	errorBody,

	overflowBody() {
		return errorBody({ status: 400, message: "Input is too long for requested model." });
	},

	malformedFrame() {
		// A frame whose message CRC does not match: the SDK must reject it.
		const frame = eventMessage("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "broken" } });
		frame.writeUInt32BE((frame.readUInt32BE(frame.length - 4) + 1) >>> 0, frame.length - 4);
		return frame;
	},
};
