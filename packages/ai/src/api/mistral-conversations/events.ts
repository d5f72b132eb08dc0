import type { CompletionChunk } from "@mistralai/mistralai/models/components";
import type { StopReason } from "../../types/messages.js";
import type { AssistantOutput } from "../shared/assistant-output.js";
import { fallbackToolCallId } from "./messages.js";

function mapFinishReason(reason: string): Exclude<StopReason, "pending" | "aborted" | "deferred"> {
	if (reason === "stop") return "stop";
	if (reason === "length" || reason === "model_length") return "length";
	if (reason === "tool_calls") return "toolUse";
	return "error";
}

interface OpenText {
	kind: "text" | "thinking";
	index: number;
	signature?: string;
}

/** Cached prompt tokens, wherever this API version reports them (they are part of `prompt_tokens`). */
function cachedTokens(usage: Record<string, unknown>, promptTokens: number): number {
	const details = (usage.promptTokensDetails ?? usage.prompt_tokens_details) as Record<string, unknown> | undefined;
	const raw = details?.cachedTokens ?? details?.cached_tokens ?? usage.numCachedTokens ?? usage.num_cached_tokens;
	const cached = typeof raw === "number" && Number.isFinite(raw) ? raw : 0;
	return Math.min(promptTokens, Math.max(0, cached));
}

/**
 * Folds Mistral chat chunks into the working message: string or text chunks grow a text block,
 * `thinking` chunks a thinking block, and tool calls stream their arguments by index.
 */
export class MistralEventMapper {
	private open: OpenText | undefined;
	private readonly toolCalls = new Map<number | string, number>();
	sawFinishReason = false;

	constructor(private readonly output: AssistantOutput) {}

	handle(chunk: CompletionChunk): void {
		const message = this.output.message;
		message.responseId ||= chunk.id;
		if (chunk.usage) this.usage(chunk.usage as Record<string, unknown>);
		const choice = chunk.choices[0];
		if (!choice) return;
		const content = choice.delta.content;
		if (typeof content === "string") this.text("text", content);
		else {
			for (const item of content ?? []) {
				if (item.type === "text") this.text("text", item.text);
				else if (item.type === "thinking") {
					const text = item.thinking.map((part) => ("text" in part ? part.text : "")).join("");
					this.text("thinking", text, item.signature ?? undefined);
				}
			}
		}
		for (const call of choice.delta.toolCalls ?? []) {
			this.closeText();
			const key = call.index ?? call.id ?? 0;
			let index = this.toolCalls.get(key);
			if (index === undefined) {
				const id = call.id && call.id !== "null" ? call.id : fallbackToolCallId(call.index ?? 0);
				index = this.output.openToolCall({ id, name: call.function.name });
				this.toolCalls.set(key, index);
			}
			const args = call.function.arguments;
			this.output.toolCallDelta(index, typeof args === "string" ? args : JSON.stringify(args ?? {}));
		}
		if (choice.finishReason) {
			this.sawFinishReason = true;
			message.rawStopReason = choice.finishReason;
			message.stopReason = mapFinishReason(choice.finishReason);
			if (message.stopReason === "error") message.errorMessage = `Provider stopped with: ${choice.finishReason}`;
		}
	}

	/** Closes the open text and every tool call, whose arguments are only complete at the end. */
	finish(): void {
		this.closeText();
		for (const index of this.toolCalls.values()) this.output.closeToolCall(index);
	}

	private text(kind: OpenText["kind"], delta: string, signature?: string): void {
		if (!delta && !signature) return;
		if (this.open?.kind !== kind) {
			this.closeText();
			this.open = { kind, index: kind === "thinking" ? this.output.openThinking() : this.output.openText() };
		}
		if (signature) this.open.signature = signature;
		if (kind === "thinking") this.output.thinkingDelta(this.open.index, delta);
		else this.output.textDelta(this.open.index, delta);
	}

	private closeText(): void {
		const open = this.open;
		if (!open) return;
		this.open = undefined;
		const signature = open.signature !== undefined ? { signature: open.signature } : {};
		if (open.kind === "thinking") this.output.closeThinking(open.index, signature);
		else this.output.closeText(open.index);
	}

	private usage(usage: Record<string, unknown>): void {
		const prompt = Number(usage.promptTokens ?? usage.prompt_tokens ?? 0);
		const completion = Number(usage.completionTokens ?? usage.completion_tokens ?? 0);
		const cached = cachedTokens(usage, prompt);
		const total = Number(usage.totalTokens ?? usage.total_tokens ?? 0);
		this.output.setUsage({
			input: Math.max(0, prompt - cached),
			output: completion,
			cacheRead: cached,
			cacheWrite: 0,
			...(total > 0 ? { totalTokens: total } : {}),
		});
	}
}
