import {
	StopReason as BedrockStopReason,
	CacheTTL,
	type ContentBlockDeltaEvent,
	type ContentBlockStartEvent,
	type ConverseStreamMetadataEvent,
	type ConverseStreamOutput,
} from "@aws-sdk/client-bedrock-runtime";
import type { StopReason } from "../../types/messages.js";
import type { AssistantOutput } from "../shared/assistant-output.js";

const REDACTED_THINKING_TEXT = "[Reasoning redacted]";

function mapStopReason(reason: string): Exclude<StopReason, "pending" | "aborted" | "deferred"> {
	switch (reason) {
		case BedrockStopReason.END_TURN:
		case BedrockStopReason.STOP_SEQUENCE:
			return "stop";
		case BedrockStopReason.MAX_TOKENS:
		case BedrockStopReason.MODEL_CONTEXT_WINDOW_EXCEEDED:
			return "length";
		case BedrockStopReason.TOOL_USE:
			return "toolUse";
		default:
			return "error";
	}
}

/** Per Bedrock content block: where it lives in the message, and redacted reasoning bytes not yet encoded. */
interface OpenBlock {
	index: number;
	redacted?: Uint8Array[];
}

/** The stream's modeled exceptions, thrown as themselves so their names reach the error text. */
const EXCEPTIONS = [
	"internalServerException",
	"modelStreamErrorException",
	"validationException",
	"throttlingException",
	"serviceUnavailableException",
] as const;

/**
 * Folds ConverseStream events into the working message. Text and reasoning blocks have no start event:
 * their first delta opens them; tool use opens with `contentBlockStart`.
 */
export class BedrockEventMapper {
	private readonly open = new Map<number, OpenBlock>();

	constructor(private readonly output: AssistantOutput) {}

	handle(event: ConverseStreamOutput): void {
		for (const name of EXCEPTIONS) {
			const exception = (event as unknown as Record<string, unknown>)[name];
			if (exception) throw exception;
		}
		if (event.messageStart && event.messageStart.role !== "assistant") {
			throw new Error(`Bedrock stream started a ${event.messageStart.role} message instead of an assistant one`);
		}
		if (event.contentBlockStart) this.start(event.contentBlockStart);
		if (event.contentBlockDelta) this.delta(event.contentBlockDelta);
		if (event.contentBlockStop) this.stop(event.contentBlockStop.contentBlockIndex ?? 0);
		if (event.messageStop) {
			const message = this.output.message;
			const reason = event.messageStop.stopReason ?? "";
			message.rawStopReason = reason;
			message.stopReason = mapStopReason(reason);
			if (message.stopReason === "error") message.errorMessage = `Provider stopped with: ${reason}`;
		}
		if (event.metadata) this.metadata(event.metadata);
	}

	private start(event: ContentBlockStartEvent): void {
		const toolUse = event.start?.toolUse;
		if (!toolUse) return;
		const index = this.output.openToolCall({ id: toolUse.toolUseId ?? "", name: toolUse.name ?? "" });
		this.open.set(event.contentBlockIndex ?? 0, { index });
	}

	private delta(event: ContentBlockDeltaEvent): void {
		const key = event.contentBlockIndex ?? 0;
		const delta = event.delta;
		if (delta?.text !== undefined) {
			const block = this.openBlock(key, () => this.output.openText());
			this.output.textDelta(block.index, delta.text);
		} else if (delta?.toolUse) {
			const block = this.open.get(key);
			if (block) this.output.toolCallDelta(block.index, delta.toolUse.input ?? "");
		} else if (delta?.reasoningContent) {
			const block = this.openBlock(key, () => this.output.openThinking({ signature: "" }));
			const reasoning = delta.reasoningContent;
			if (reasoning.text) this.output.thinkingDelta(block.index, reasoning.text);
			if (reasoning.signature && !block.redacted)
				this.output.appendThinkingSignature(block.index, reasoning.signature);
			if (reasoning.redactedContent?.length) {
				if (!block.redacted) {
					block.redacted = [];
					const thinking = this.output.message.content[block.index];
					if (thinking?.type === "thinking") thinking.redacted = true;
					this.output.thinkingDelta(block.index, REDACTED_THINKING_TEXT);
				}
				block.redacted.push(reasoning.redactedContent);
			}
		}
	}

	private openBlock(key: number, open: () => number): OpenBlock {
		let block = this.open.get(key);
		if (!block) {
			block = { index: open() };
			this.open.set(key, block);
		}
		return block;
	}

	private stop(key: number): void {
		const block = this.open.get(key);
		if (!block) return;
		this.open.delete(key);
		const content = this.output.message.content[block.index];
		if (content?.type === "text") this.output.closeText(block.index);
		else if (content?.type === "toolCall") this.output.closeToolCall(block.index);
		else if (content?.type === "thinking") {
			// Redacted reasoning replays as its encrypted bytes, kept base64 in the signature.
			const signature = block.redacted ? { signature: Buffer.concat(block.redacted).toString("base64") } : {};
			this.output.closeThinking(block.index, signature);
		}
	}

	private metadata(event: ConverseStreamMetadataEvent): void {
		const usage = event.usage;
		if (!usage) return;
		const oneHour = usage.cacheDetails?.reduce(
			(total, detail) => total + (detail.ttl === CacheTTL.ONE_HOUR ? (detail.inputTokens ?? 0) : 0),
			0,
		);
		const input = usage.inputTokens ?? 0;
		const output = usage.outputTokens ?? 0;
		this.output.setUsage({
			input,
			output,
			cacheRead: usage.cacheReadInputTokens ?? 0,
			cacheWrite: usage.cacheWriteInputTokens ?? 0,
			...(oneHour ? { cacheWrite1h: oneHour } : {}),
			totalTokens: usage.totalTokens || input + output,
		});
	}
}
