import type { Response as OpenAIResponse, ResponseStreamEvent } from "openai/resources/responses/responses.js";
import type { AssistantOutput } from "../shared/assistant-output.js";
import { formatTextSignature } from "./messages.js";

type OutputItem = OpenAIResponse["output"][number];
type ItemRecord = Record<string, unknown> & { type: string; id?: string };

/** Service tiers billed differently from the catalog price. */
const SERVICE_TIER_COST: Record<string, number> = { flex: 0.5, priority: 2 };

/** Per `output_index` state, kept off the content blocks. */
interface OutputSlot {
	contentIndex: number;
	kind: "reasoning" | "message" | "function_call";
}

function joinTexts(parts: unknown, types: readonly string[]): string | undefined {
	if (!Array.isArray(parts)) return undefined;
	const texts = parts
		.filter((part): part is { type: string; text?: string; refusal?: string } => types.includes(part?.type))
		.map((part) => part.text ?? part.refusal ?? "");
	return texts.length > 0 ? texts.join("") : undefined;
}

/** Folds Responses API events into the working message (docs/design/ai-adapters.md#openai-responses). */
export class ResponsesEventMapper {
	private readonly slots = new Map<number, OutputSlot>();
	/** Reasoning items by item id, so the terminal response can backfill their encrypted content. */
	private readonly reasoningItems = new Map<string, { contentIndex: number; item: ItemRecord }>();
	private readonly finishedToolCalls = new Set<number>();
	sawTerminal = false;

	constructor(private readonly output: AssistantOutput) {}

	handle(event: ResponseStreamEvent): void {
		const message = this.output.message;
		switch (event.type) {
			case "response.created":
				message.responseId = event.response.id;
				break;
			case "response.output_item.added":
				this.openItem(event.output_index, event.item);
				break;
			case "response.reasoning_summary_text.delta":
			case "response.reasoning_text.delta":
				this.withSlot(event.output_index, "reasoning", (index) => this.output.thinkingDelta(index, event.delta));
				break;
			case "response.reasoning_summary_part.done":
				this.withSlot(event.output_index, "reasoning", (index) => this.output.thinkingDelta(index, "\n\n"));
				break;
			case "response.output_text.delta":
			case "response.refusal.delta":
				this.withSlot(event.output_index, "message", (index) => this.output.textDelta(index, event.delta));
				break;
			case "response.function_call_arguments.delta":
				this.withSlot(event.output_index, "function_call", (index) =>
					this.output.toolCallDelta(index, event.delta),
				);
				break;
			case "response.function_call_arguments.done":
				this.withSlot(event.output_index, "function_call", (index) =>
					this.output.replaceToolArguments(index, event.arguments),
				);
				break;
			case "response.output_item.done":
				this.closeItem(event.output_index, event.item);
				break;
			case "response.completed":
			case "response.incomplete":
				this.finalize(event.response);
				break;
			case "response.failed":
				this.sawTerminal = true;
				throw new Error(failedResponseMessage(event.response));
			case "error":
				throw new Error(`Error Code ${event.code ?? "unknown"}: ${event.message}`);
		}
	}

	/** Throws when the stream ended without a terminal event or left a requested tool call unfinished. */
	assertComplete(): void {
		if (!this.sawTerminal) throw new Error("OpenAI Responses stream ended before a terminal response event");
		if (this.output.message.stopReason !== "toolUse") return;
		for (const slot of this.slots.values()) {
			if (slot.kind !== "function_call" || this.finishedToolCalls.has(slot.contentIndex)) continue;
			const call = this.output.toolCall(slot.contentIndex);
			throw new Error(`OpenAI Responses stream completed with an unfinished tool call: ${call.name} (${call.id})`);
		}
	}

	private withSlot(outputIndex: number, kind: OutputSlot["kind"], apply: (contentIndex: number) => void): void {
		const slot = this.slots.get(outputIndex);
		if (slot?.kind === kind) apply(slot.contentIndex);
	}

	private openItem(outputIndex: number, item: OutputItem): void {
		if (item.type === "reasoning") {
			this.slots.set(outputIndex, { kind: "reasoning", contentIndex: this.output.openThinking() });
		} else if (item.type === "message") {
			this.slots.set(outputIndex, { kind: "message", contentIndex: this.output.openText() });
		} else if (item.type === "function_call") {
			const namespace = (item as { namespace?: unknown }).namespace;
			const contentIndex = this.output.openToolCall({
				id: `${item.call_id}|${item.id}`,
				name: item.name,
				...(typeof namespace === "string" ? { namespace } : {}),
			});
			this.slots.set(outputIndex, { kind: "function_call", contentIndex });
			if (item.arguments) this.output.toolCallDelta(contentIndex, item.arguments);
		}
	}

	private closeItem(outputIndex: number, item: OutputItem): void {
		const slot = this.slots.get(outputIndex);
		if (!slot) return;
		const index = slot.contentIndex;
		if (slot.kind === "reasoning" && item.type === "reasoning") {
			const record = item as unknown as ItemRecord;
			const summary = item.summary?.map((part) => part.text).join("\n\n");
			const content = item.content?.map((part) => part.text).join("\n\n");
			const current = this.output.message.content[index];
			const accumulated = current?.type === "thinking" ? current.thinking : "";
			this.output.closeThinking(index, {
				thinking: summary || content || accumulated,
				signature: JSON.stringify(record),
			});
			if (item.id) this.reasoningItems.set(item.id, { contentIndex: index, item: record });
		} else if (slot.kind === "message" && item.type === "message") {
			const text = joinTexts(item.content, ["output_text", "refusal"]);
			const phase = (item as { phase?: unknown }).phase;
			this.output.closeText(index, {
				...(text !== undefined ? { text } : {}),
				signature: formatTextSignature(item.id, phase),
			});
		} else if (slot.kind === "function_call" && item.type === "function_call") {
			if (item.arguments) this.output.replaceToolArguments(index, item.arguments);
			this.output.closeToolCall(index);
			this.finishedToolCalls.add(index);
		}
	}

	private finalize(response: OpenAIResponse): void {
		this.sawTerminal = true;
		const message = this.output.message;
		message.responseId = response.id;
		this.backfillEncryptedReasoning(response.output ?? []);
		const usage = response.usage;
		if (usage) {
			const cacheRead = usage.input_tokens_details?.cached_tokens ?? 0;
			const cacheWrite =
				(usage.input_tokens_details as { cache_write_tokens?: number } | undefined)?.cache_write_tokens ?? 0;
			const recorded = this.output.setUsage({
				input: Math.max(0, usage.input_tokens - cacheRead - cacheWrite),
				output: usage.output_tokens,
				cacheRead,
				cacheWrite,
				reasoning: usage.output_tokens_details?.reasoning_tokens,
				totalTokens: usage.total_tokens,
			});
			const multiplier = SERVICE_TIER_COST[response.service_tier ?? ""];
			if (multiplier !== undefined) {
				for (const key of ["input", "output", "cacheRead", "cacheWrite", "total"] as const)
					recorded.cost[key] *= multiplier;
			}
		}
		const status = response.status ?? "completed";
		const reason = response.incomplete_details?.reason;
		message.rawStopReason = reason ? `${status}.${reason}` : status;
		if (status === "incomplete") {
			if (reason === "max_output_tokens") message.stopReason = "length";
			else {
				message.stopReason = "error";
				message.errorMessage = reason
					? `Response incomplete: ${reason}`
					: "Response incomplete without a provider reason";
			}
		} else if (status === "failed" || status === "cancelled") {
			message.stopReason = "error";
			message.errorMessage = failedResponseMessage(response);
		} else {
			message.stopReason = this.output.hasToolCalls() ? "toolUse" : "stop";
		}
	}

	/** Some hosts only put `encrypted_content` on the terminal response; replay needs it on the item. */
	private backfillEncryptedReasoning(items: OutputItem[]): void {
		for (const item of items) {
			if (item.type !== "reasoning" || !item.encrypted_content || !item.id) continue;
			const known = this.reasoningItems.get(item.id);
			if (!known || known.item.encrypted_content) continue;
			known.item.encrypted_content = item.encrypted_content;
			const block = this.output.message.content[known.contentIndex];
			if (block?.type === "thinking") block.thinkingSignature = JSON.stringify(known.item);
		}
	}
}

function failedResponseMessage(response: OpenAIResponse): string {
	if (response.error) return `${response.error.code || "unknown"}: ${response.error.message || "no message"}`;
	if (response.incomplete_details?.reason) return `incomplete: ${response.incomplete_details.reason}`;
	return "Unknown error (no error details in response)";
}
