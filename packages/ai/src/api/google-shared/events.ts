import { FinishReason, type GenerateContentResponse, type Part } from "@google/genai";
import type { StopReason } from "../../types/messages.js";
import type { AssistantOutput } from "../shared/assistant-output.js";

/** Finish reasons that end a turn normally; every other one is a failure, never a silent stop. */
function mapFinishReason(reason: FinishReason): Exclude<StopReason, "pending" | "aborted" | "deferred"> {
	if (reason === FinishReason.STOP) return "stop";
	if (reason === FinishReason.MAX_TOKENS || reason === FinishReason.CONTINUATION) return "length";
	return "error";
}

interface OpenBlock {
	kind: "text" | "thinking";
	index: number;
	/** The last non-empty signature seen on this block (later deltas may omit it). */
	signature?: string;
}

let toolCallCounter = 0;

/**
 * Folds Gemini `GenerateContentResponse` chunks into the working message (Gemini and Vertex alike).
 * Consecutive text (or thought) parts grow one block; a function call arrives whole and closes it.
 */
export class GoogleEventMapper {
	private open: OpenBlock | undefined;

	constructor(private readonly output: AssistantOutput) {}

	handle(chunk: GenerateContentResponse): void {
		const message = this.output.message;
		message.responseId ||= chunk.responseId;
		const candidate = chunk.candidates?.[0];
		for (const part of candidate?.content?.parts ?? []) {
			if (part.text !== undefined) this.textPart(part, part.text);
			if (part.functionCall) this.functionCall(part);
		}
		if (candidate?.finishReason) {
			message.rawStopReason = candidate.finishReason;
			message.stopReason = mapFinishReason(candidate.finishReason);
			if (message.stopReason === "stop" && this.output.hasToolCalls()) message.stopReason = "toolUse";
			if (message.stopReason === "error") message.errorMessage = `Provider stopped with: ${candidate.finishReason}`;
		}
		const usage = chunk.usageMetadata;
		if (usage) {
			const cached = usage.cachedContentTokenCount ?? 0;
			const thoughts = usage.thoughtsTokenCount ?? 0;
			this.output.setUsage({
				input: (usage.promptTokenCount ?? 0) - cached,
				output: (usage.candidatesTokenCount ?? 0) + thoughts,
				cacheRead: cached,
				cacheWrite: 0,
				reasoning: thoughts,
				totalTokens: usage.totalTokenCount ?? 0,
			});
		}
	}

	/** Closes the block still open when the stream ends. */
	finish(): void {
		this.closeOpen();
	}

	private textPart(part: Part, text: string): void {
		const kind = part.thought === true ? "thinking" : "text";
		if (this.open?.kind !== kind) {
			this.closeOpen();
			const index = kind === "thinking" ? this.output.openThinking() : this.output.openText();
			this.open = { kind, index };
		}
		const block = this.open;
		if (part.thoughtSignature) block.signature = part.thoughtSignature;
		if (kind === "thinking") this.output.thinkingDelta(block.index, text);
		else this.output.textDelta(block.index, text);
	}

	private functionCall(part: Part): void {
		this.closeOpen();
		const call = part.functionCall!;
		const name = call.name ?? "";
		const taken =
			call.id !== undefined && this.output.message.content.some((b) => b.type === "toolCall" && b.id === call.id);
		const id = call.id && !taken ? call.id : `${name}_${Date.now()}_${++toolCallCounter}`;
		const index = this.output.openToolCall({ id, name });
		if (part.thoughtSignature) this.output.toolCall(index).thoughtSignature = part.thoughtSignature;
		this.output.toolCallDelta(index, JSON.stringify(call.args ?? {}));
		this.output.closeToolCall(index);
	}

	private closeOpen(): void {
		const block = this.open;
		if (!block) return;
		this.open = undefined;
		const signature = block.signature !== undefined ? { signature: block.signature } : {};
		if (block.kind === "thinking") this.output.closeThinking(block.index, signature);
		else this.output.closeText(block.index, signature);
	}
}
