import type {
	Usage as AnthropicUsage,
	MessageDeltaUsage,
	RawMessageStreamEvent,
} from "@anthropic-ai/sdk/resources/messages/messages.js";
import type { StopReason } from "../../types/messages.js";
import type { Api, Model } from "../../types/model.js";
import type { AssistantOutput, UsageReading } from "../shared/assistant-output.js";

const REDACTED_THINKING_TEXT = "[Reasoning redacted]";

/** Anthropic `stop_reason` → tau stop reason; an unknown reason is a failure, never a silent stop. */
function mapAnthropicStopReason(reason: string): Exclude<StopReason, "pending" | "aborted" | "deferred"> {
	switch (reason) {
		case "end_turn":
		case "pause_turn":
		case "stop_sequence":
			return "stop";
		case "max_tokens":
			return "length";
		case "tool_use":
			return "toolUse";
		case "refusal":
		case "sensitive":
			return "error";
		default:
			throw new Error(`Unhandled stop reason: ${reason}`);
	}
}

type UsageFields = Partial<Pick<AnthropicUsage, "cache_creation">> &
	Partial<Omit<MessageDeltaUsage, "output_tokens">> & { output_tokens?: number | null };

/**
 * Folds Anthropic provider events into the working message. Provider block indices map to content
 * indices here, never on the blocks themselves.
 */
export class AnthropicEventMapper {
	private readonly blockIndex = new Map<number, number>();
	private usage: UsageReading = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
	private sawMessageStart = false;
	sawMessageStop = false;

	constructor(
		private readonly model: Model<Api>,
		private readonly output: AssistantOutput,
		/** The tau name of a tool the response calls (docs/providers.md: subscription requests rename tools). */
		private readonly toolName: (name: string) => string,
	) {}

	handle(event: RawMessageStreamEvent): void {
		const message = this.output.message;
		switch (event.type) {
			case "message_start": {
				this.sawMessageStart = true;
				message.responseId = event.message.id;
				if (event.message.model && event.message.model !== this.model.id)
					message.responseModel = event.message.model;
				this.applyUsage(event.message.usage);
				break;
			}
			case "content_block_start": {
				const block = event.content_block;
				let index: number | undefined;
				if (block.type === "text") {
					index = this.output.openText();
					this.output.textDelta(index, block.text ?? "");
				} else if (block.type === "thinking") {
					index = this.output.openThinking({ signature: block.signature ?? "" });
					this.output.thinkingDelta(index, block.thinking ?? "");
				} else if (block.type === "redacted_thinking") {
					index = this.output.openThinking({
						thinking: REDACTED_THINKING_TEXT,
						signature: block.data,
						redacted: true,
					});
				} else if (block.type === "tool_use") {
					index = this.output.openToolCall({ id: block.id, name: this.toolName(block.name) });
					const input = block.input as Record<string, unknown> | undefined;
					if (input && Object.keys(input).length > 0) this.output.toolCallDelta(index, JSON.stringify(input));
				}
				if (index !== undefined) this.blockIndex.set(event.index, index);
				break;
			}
			case "content_block_delta": {
				const index = this.blockIndex.get(event.index);
				if (index === undefined) break;
				const delta = event.delta;
				if (delta.type === "text_delta") this.output.textDelta(index, delta.text);
				else if (delta.type === "thinking_delta") this.output.thinkingDelta(index, delta.thinking);
				else if (delta.type === "input_json_delta") this.output.toolCallDelta(index, delta.partial_json);
				else if (delta.type === "signature_delta") this.output.appendThinkingSignature(index, delta.signature);
				break;
			}
			case "content_block_stop": {
				const index = this.blockIndex.get(event.index);
				if (index === undefined) break;
				const block = message.content[index];
				if (block?.type === "text") this.output.closeText(index);
				else if (block?.type === "thinking") this.output.closeThinking(index);
				else if (block?.type === "toolCall") this.output.closeToolCall(index);
				break;
			}
			case "message_delta": {
				const reason: string | null = event.delta.stop_reason;
				if (reason) {
					message.rawStopReason = reason;
					message.stopReason = mapAnthropicStopReason(reason);
					if (reason === "refusal") {
						message.errorMessage =
							event.delta.stop_details?.explanation || "The model refused to complete the request";
					} else if (reason === "sensitive") {
						message.errorMessage = "Provider stopped with: sensitive";
					}
				}
				if (event.usage) this.applyUsage(event.usage);
				break;
			}
			case "message_stop":
				this.sawMessageStop = true;
				break;
		}
	}

	/** Throws when the stream ended without the protocol's closing event. */
	assertComplete(): void {
		if (this.sawMessageStart && !this.sawMessageStop) throw new Error("Anthropic stream ended before message_stop");
	}

	/** Non-null fields overwrite; totals and cost are recomputed on every change. */
	private applyUsage(usage: UsageFields): void {
		const next = { ...this.usage };
		if (usage.input_tokens != null) next.input = usage.input_tokens;
		if (usage.output_tokens != null) next.output = usage.output_tokens;
		if (usage.cache_read_input_tokens != null) next.cacheRead = usage.cache_read_input_tokens;
		if (usage.cache_creation_input_tokens != null) next.cacheWrite = usage.cache_creation_input_tokens;
		const oneHour = usage.cache_creation?.ephemeral_1h_input_tokens;
		if (oneHour != null) next.cacheWrite1h = oneHour;
		const thinking = usage.output_tokens_details?.thinking_tokens;
		if (thinking != null) next.reasoning = thinking;
		this.usage = next;
		this.output.setUsage(next);
	}
}
