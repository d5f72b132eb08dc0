import type { MockBlock, MockErrorDetails, MockStopReason, MockTurn, MockUsage, ScriptedText } from "./turn.js";

/** A block ready for encoding: full text plus the delta pieces a stream sends. */
export type ResolvedBlock =
	| { type: "thinking"; text: string; pieces: readonly string[]; signature: string }
	| { type: "redactedThinking"; data: string }
	| { type: "text"; text: string; pieces: readonly string[] }
	| { type: "toolCall"; id: string; itemId: string; name: string; argumentsText: string; pieces: readonly string[] };

export interface ResolvedTurn {
	blocks: readonly ResolvedBlock[];
	refusal: string | undefined;
	usage: Required<MockUsage>;
	stopReason: MockStopReason;
	rawStopReason: string | undefined;
	error: MockErrorDetails;
	reasoningField: "reasoning_content" | "reasoning";
	model: string;
	/** Streams leave out the event that ends the turn. */
	omitStop: boolean;
}

/** Per-request facts the resolver and encoders need. */
export interface TurnContext {
	/** `model` from the request body (or `mock-model`). */
	requestModel: string;
	/** Length of the raw request body, the basis of the default input-token count. */
	requestBytes: number;
	/** Unix seconds, for `created` fields. */
	createdAt: number;
	/** A fresh deterministic id with the given prefix. */
	newId(prefix: string): string;
}

const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];

/** `count` deterministic words separated by single spaces, used for "text of N tokens". */
export function generateWords(count: number): string {
	const words: string[] = new Array(Math.max(0, count));
	for (let i = 0; i < words.length; i++) words[i] = WORDS[i % WORDS.length]!;
	return words.join(" ");
}

/** Splits text into words (each with its leading whitespace), grouped `perPiece` words at a time. */
export function splitIntoPieces(text: string, perPiece: number): string[] {
	const words = text.match(/\s*\S+|\s+/g) ?? [];
	const size = Math.max(1, Math.floor(perPiece));
	const pieces: string[] = [];
	for (let i = 0; i < words.length; i += size) pieces.push(words.slice(i, i + size).join(""));
	return pieces;
}

function splitByChars(text: string, size: number): string[] {
	const step = Math.max(1, Math.floor(size));
	const pieces: string[] = [];
	for (let i = 0; i < text.length; i += step) pieces.push(text.slice(i, i + step));
	return pieces;
}

function scriptedPieces(text: ScriptedText, perPiece: number): { text: string; pieces: readonly string[] } {
	if (typeof text === "string") return { text, pieces: splitIntoPieces(text, perPiece) };
	if (Array.isArray(text)) return { text: text.join(""), pieces: text };
	const generated = generateWords((text as { tokens: number }).tokens);
	return { text: generated, pieces: splitIntoPieces(generated, perPiece) };
}

/** The explicit block list of a turn, building it from the shorthand fields when `blocks` is absent. */
function blocksOf(turn: MockTurn): readonly MockBlock[] {
	if (turn.blocks) return turn.blocks;
	const blocks: MockBlock[] = [];
	if (turn.thinking !== undefined) {
		const thinking = turn.thinking;
		if (typeof thinking === "object" && !Array.isArray(thinking) && "text" in thinking) {
			blocks.push({ type: "thinking", text: thinking.text, signature: thinking.signature });
		} else {
			blocks.push({ type: "thinking", text: thinking as ScriptedText });
		}
	}
	if (turn.redactedThinking !== undefined) blocks.push({ type: "redactedThinking", data: turn.redactedThinking });
	if (turn.text !== undefined) blocks.push({ type: "text", text: turn.text });
	for (const call of turn.toolCalls ?? []) blocks.push({ type: "toolCall", ...call });
	return blocks;
}

function countWords(text: string): number {
	return text.match(/\S+/g)?.length ?? 0;
}

function resolveBlock(block: MockBlock, perPiece: number, ctx: TurnContext): ResolvedBlock {
	switch (block.type) {
		case "thinking": {
			const { text, pieces } = scriptedPieces(block.text, perPiece);
			return { type: "thinking", text, pieces, signature: block.signature ?? ctx.newId("sig_mock_") };
		}
		case "redactedThinking":
			return { type: "redactedThinking", data: block.data };
		case "text":
			return { type: "text", ...scriptedPieces(block.text, perPiece) };
		case "toolCall": {
			const argumentsText =
				typeof block.arguments === "string" ? block.arguments : JSON.stringify(block.arguments ?? {});
			return {
				type: "toolCall",
				id: block.id ?? ctx.newId("call_mock_"),
				itemId: block.itemId ?? ctx.newId("fc_mock_"),
				name: block.name,
				argumentsText,
				pieces: splitByChars(argumentsText, block.chunkSize ?? 8),
			};
		}
	}
}

/** Token estimates for usage defaults: words of text and thinking, a quarter of the argument characters. */
function estimateTokens(blocks: readonly ResolvedBlock[]): { output: number; reasoning: number } {
	let output = 0;
	let reasoning = 0;
	for (const block of blocks) {
		if (block.type === "thinking") reasoning += countWords(block.text);
		else if (block.type === "text") output += countWords(block.text);
		else if (block.type === "toolCall") output += Math.ceil(block.argumentsText.length / 4);
	}
	return { output: output + reasoning, reasoning };
}

export function resolveTurn(turn: MockTurn, ctx: TurnContext): ResolvedTurn {
	const perPiece = turn.chunkSize ?? 1;
	const blocks = blocksOf(turn).map((block) => resolveBlock(block, perPiece, ctx));
	const estimate = estimateTokens(blocks);
	const hasToolCall = blocks.some((block) => block.type === "toolCall");
	const usage = turn.usage ?? {};
	return {
		blocks,
		refusal: turn.refusal,
		usage: {
			input: usage.input ?? Math.ceil(ctx.requestBytes / 4),
			output: usage.output ?? estimate.output,
			cacheRead: usage.cacheRead ?? 0,
			cacheWrite: usage.cacheWrite ?? 0,
			cacheWrite1h: usage.cacheWrite1h ?? 0,
			reasoning: usage.reasoning ?? estimate.reasoning,
		},
		stopReason: turn.stopReason ?? (hasToolCall ? "toolUse" : "stop"),
		rawStopReason: turn.rawStopReason,
		error: turn.error ?? {},
		reasoningField: turn.reasoningField ?? "reasoning_content",
		model: turn.model ?? ctx.requestModel,
		omitStop: turn.fault?.kind === "omitStop",
	};
}
