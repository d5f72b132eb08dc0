import type { ChatCompletionChunk } from "openai/resources/chat/completions/completions.js";
import type { StopReason } from "../../types/messages.js";
import type { AssistantOutput } from "../shared/assistant-output.js";

/** Non-standard fields OpenAI-compatible hosts add to deltas and usage. */
type HostDelta = ChatCompletionChunk.Choice.Delta & {
	reasoning_content?: string | null;
	reasoning?: string | null;
	reasoning_text?: string | null;
	reasoning_details?: ReasoningDetail[] | null;
};
type HostUsage = NonNullable<ChatCompletionChunk["usage"]> & {
	prompt_cache_hit_tokens?: number;
	cached_tokens?: number;
	reasoning_tokens?: number;
	cost?: number;
	prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
};
type HostChoice = ChatCompletionChunk.Choice & { usage?: HostUsage | null };
type ReasoningDetail = { type?: string; index?: number; text?: string; summary?: string; [field: string]: unknown };

const REASONING_FIELDS = ["reasoning_content", "reasoning", "reasoning_text"] as const;

export type CompletionsFinish = Exclude<StopReason, "pending" | "aborted" | "deferred">;

/** `finish_reason` → stop reason, with the error text for reasons that are failures. */
function mapFinishReason(reason: string): { stopReason: CompletionsFinish; errorMessage?: string } {
	switch (reason) {
		case "stop":
		case "end":
			return { stopReason: "stop" };
		case "length":
			return { stopReason: "length" };
		case "tool_calls":
		case "function_call":
			return { stopReason: "toolUse" };
		default:
			return { stopReason: "error", errorMessage: `Provider finish_reason: ${reason}` };
	}
}

/** Folds Chat Completions chunks into the working message; blocks are finalized at stream end. */
export class CompletionsChunkMapper {
	private textIndex: number | undefined;
	private thinkingIndex: number | undefined;
	private readonly toolByProviderIndex = new Map<number, number>();
	private readonly toolById = new Map<string, number>();
	private readonly reasoningDetails: ReasoningDetail[] = [];
	sawFinishReason = false;

	constructor(
		private readonly modelId: string,
		private readonly output: AssistantOutput,
	) {}

	handle(chunk: ChatCompletionChunk): void {
		const message = this.output.message;
		if (chunk.id) message.responseId ||= chunk.id;
		if (chunk.model && chunk.model !== this.modelId) message.responseModel ||= chunk.model;
		const choice = chunk.choices?.[0] as HostChoice | undefined;
		const usage = (chunk.usage ?? choice?.usage) as HostUsage | null | undefined;
		if (usage) this.applyUsage(usage);
		if (!choice) return;
		const delta = (choice.delta ?? {}) as HostDelta;
		this.handleReasoning(delta);
		const text = (delta.content ?? "") + (delta.refusal ?? "");
		if (text) {
			this.textIndex ??= this.output.openText();
			this.output.textDelta(this.textIndex, text);
		}
		for (const call of delta.tool_calls ?? []) this.handleToolCall(call);
		if (choice.finish_reason) {
			this.sawFinishReason = true;
			const mapped = mapFinishReason(choice.finish_reason);
			message.rawStopReason = choice.finish_reason;
			message.stopReason = mapped.stopReason;
			if (mapped.errorMessage) message.errorMessage = mapped.errorMessage;
		}
	}

	/** Ends every block in content order; reasoning details become the thinking block's signature. */
	finish(): void {
		if (this.reasoningDetails.length > 0 && this.thinkingIndex !== undefined) {
			this.output.closeThinking(this.thinkingIndex, { signature: JSON.stringify(this.reasoningDetails) });
		}
		this.output.closeAll();
	}

	private handleReasoning(delta: HostDelta): void {
		for (const field of REASONING_FIELDS) {
			const text = delta[field];
			if (typeof text !== "string" || text.length === 0) continue;
			this.thinkingIndex ??= this.output.openThinking({ signature: field });
			this.output.thinkingDelta(this.thinkingIndex, text);
			break;
		}
		for (const detail of delta.reasoning_details ?? []) {
			this.thinkingIndex ??= this.output.openThinking();
			this.accumulateDetail(detail);
		}
	}

	/** Consecutive text/summary pieces of the same entry merge into one, as the provider expects them back. */
	private accumulateDetail(detail: ReasoningDetail): void {
		const previous = this.reasoningDetails.at(-1);
		const mergeable = detail.type === "reasoning.text" || detail.type === "reasoning.summary";
		if (previous && mergeable && previous.type === detail.type && previous.index === detail.index) {
			if (typeof detail.text === "string") previous.text = (previous.text ?? "") + detail.text;
			if (typeof detail.summary === "string") previous.summary = (previous.summary ?? "") + detail.summary;
			return;
		}
		this.reasoningDetails.push({ ...detail });
	}

	private handleToolCall(call: ChatCompletionChunk.Choice.Delta.ToolCall): void {
		let index = call.index !== undefined ? this.toolByProviderIndex.get(call.index) : undefined;
		if (index === undefined && call.id) index = this.toolById.get(call.id);
		if (index === undefined) {
			index = this.output.openToolCall({ id: call.id ?? "", name: call.function?.name ?? "" });
			if (call.index !== undefined) this.toolByProviderIndex.set(call.index, index);
		} else {
			const block = this.output.toolCall(index);
			if (!block.id && call.id) block.id = call.id;
			if (!block.name && call.function?.name) block.name = call.function.name;
		}
		if (call.id) this.toolById.set(call.id, index);
		// Every tool-call chunk is a delta, also one that only names the call (Pi's event stream).
		this.output.toolCallDelta(index, call.function?.arguments ?? "", { emitEmpty: true });
	}

	private applyUsage(usage: HostUsage): void {
		const cacheRead =
			usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? usage.cached_tokens ?? 0;
		const cacheWrite = usage.prompt_tokens_details?.cache_write_tokens || 0;
		const recorded = this.output.setUsage({
			input: Math.max(0, (usage.prompt_tokens ?? 0) - cacheRead - cacheWrite),
			output: usage.completion_tokens ?? 0,
			cacheRead,
			cacheWrite,
			reasoning: usage.completion_tokens_details?.reasoning_tokens || usage.reasoning_tokens || 0,
		});
		// OpenRouter reports what it billed; that replaces the catalog estimate of the total.
		if (typeof usage.cost === "number" && Number.isFinite(usage.cost) && usage.cost >= 0) {
			recorded.cost.total = usage.cost;
			recorded.cost.totalFromProvider = true;
		}
	}
}
