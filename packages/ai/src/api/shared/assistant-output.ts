import { ToolCallArgumentsStream } from "../../json/tool-call-arguments.js";
import type { AssistantMessageEventStream } from "../../stream/assistant-message-event-stream.js";
import type { TextContent, ThinkingContent, ToolCall } from "../../types/content.js";
import type { AssistantMessage } from "../../types/messages.js";
import type { Api, Model } from "../../types/model.js";
import { type Usage, zeroUsage } from "../../types/usage.js";
import { calculateCost } from "../../usage/cost.js";

/** Token counts as an adapter reads them off the wire; `totalTokens` defaults to the sum of the four. */
export interface UsageReading {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	cacheWrite1h?: number;
	reasoning?: number;
	totalTokens?: number;
}

/**
 * The single working `AssistantMessage` of one request plus the events that describe its growth.
 * Stream-internal state (argument parsers, raw argument text) lives here, keyed by content index,
 * never on the content blocks, so it cannot leak into partials or transcripts.
 */
export class AssistantOutput {
	readonly message: AssistantMessage;
	private readonly argumentStreams = new Map<number, ToolCallArgumentsStream>();
	private readonly closed = new Set<number>();

	constructor(
		private readonly model: Model<Api>,
		private readonly events: AssistantMessageEventStream,
	) {
		this.message = {
			role: "assistant",
			content: [],
			api: model.api,
			provider: model.provider,
			model: model.id,
			usage: zeroUsage(),
			stopReason: "pending",
			timestamp: Date.now(),
		};
	}

	/** A promise while the consumer is still busy with earlier events (see `EventStream.ready`). */
	ready(): Promise<void> | undefined {
		return this.events.ready();
	}

	start(): void {
		this.events.push({ type: "start", partial: this.message });
	}

	openText(): number {
		const index = this.message.content.push({ type: "text", text: "" }) - 1;
		this.events.push({ type: "text_start", contentIndex: index, partial: this.message });
		return index;
	}

	textDelta(index: number, delta: string): void {
		if (!delta) return;
		const block = this.message.content[index] as TextContent;
		block.text += delta;
		this.events.push({ type: "text_delta", contentIndex: index, delta, partial: this.message });
	}

	/** Ends a text block; `text`, when given, is the authoritative final content. */
	closeText(index: number, final?: { text?: string; signature?: string }): void {
		if (!this.markClosed(index)) return;
		const block = this.message.content[index] as TextContent;
		if (final?.text !== undefined) block.text = final.text;
		if (final?.signature !== undefined) block.textSignature = final.signature;
		this.events.push({ type: "text_end", contentIndex: index, content: block.text, partial: this.message });
	}

	/** Opens a thinking block; redacted thinking arrives complete with its placeholder text. */
	openThinking(init: { thinking?: string; signature?: string; redacted?: boolean } = {}): number {
		const block: ThinkingContent = { type: "thinking", thinking: init.thinking ?? "" };
		if (init.signature !== undefined) block.thinkingSignature = init.signature;
		if (init.redacted) block.redacted = true;
		const index = this.message.content.push(block) - 1;
		this.events.push({ type: "thinking_start", contentIndex: index, partial: this.message });
		return index;
	}

	thinkingDelta(index: number, delta: string): void {
		if (!delta) return;
		const block = this.message.content[index] as ThinkingContent;
		block.thinking += delta;
		this.events.push({ type: "thinking_delta", contentIndex: index, delta, partial: this.message });
	}

	appendThinkingSignature(index: number, signature: string): void {
		const block = this.message.content[index] as ThinkingContent;
		block.thinkingSignature = (block.thinkingSignature ?? "") + signature;
	}

	closeThinking(index: number, final?: { thinking?: string; signature?: string }): void {
		if (!this.markClosed(index)) return;
		const block = this.message.content[index] as ThinkingContent;
		if (final?.thinking !== undefined) block.thinking = final.thinking;
		if (final?.signature !== undefined) block.thinkingSignature = final.signature;
		this.events.push({ type: "thinking_end", contentIndex: index, content: block.thinking, partial: this.message });
	}

	openToolCall(init: { id: string; name: string; namespace?: string }): number {
		const call: ToolCall = { type: "toolCall", id: init.id, name: init.name, arguments: {} };
		if (init.namespace !== undefined) call.namespace = init.namespace;
		const index = this.message.content.push(call) - 1;
		const args = new ToolCallArgumentsStream();
		this.argumentStreams.set(index, args);
		liveArguments(call, args);
		this.events.push({ type: "toolcall_start", contentIndex: index, partial: this.message });
		return index;
	}

	toolCall(index: number): ToolCall {
		return this.message.content[index] as ToolCall;
	}

	/**
	 * Feeds a raw fragment of argument JSON; the block's `arguments` becomes the best-effort parse so far.
	 * An empty fragment is an event only with `emitEmpty` (adapters whose Pi counterpart reports one).
	 */
	toolCallDelta(index: number, delta: string, options?: { emitEmpty?: boolean }): void {
		const args = this.argumentStreams.get(index);
		if (!args || (!delta && !options?.emitEmpty)) return;
		if (delta) args.push(delta);
		this.events.push({ type: "toolcall_delta", contentIndex: index, delta, partial: this.message });
	}

	/** Reconciles with the provider's full argument text, emitting any suffix not streamed yet. */
	replaceToolArguments(index: number, fullText: string): void {
		const args = this.argumentStreams.get(index);
		if (!args) return;
		const { delta } = args.replace(fullText);
		const missing = delta === undefined ? fullText : delta;
		if (missing)
			this.events.push({ type: "toolcall_delta", contentIndex: index, delta: missing, partial: this.message });
	}

	/** Ends a tool call with one strict parse of its complete argument text. */
	closeToolCall(index: number): void {
		const args = this.argumentStreams.get(index);
		if (!args || !this.markClosed(index)) return;
		const call = this.toolCall(index);
		const final = args.finish();
		call.arguments = final.arguments;
		if (final.argumentsError !== undefined) call.argumentsError = final.argumentsError;
		this.argumentStreams.delete(index);
		this.events.push({ type: "toolcall_end", contentIndex: index, toolCall: call, partial: this.message });
	}

	/** Ends every still-open block in content order (adapters that finalize only at stream end). */
	closeAll(): void {
		for (let index = 0; index < this.message.content.length; index++) {
			if (this.closed.has(index)) continue;
			const block = this.message.content[index];
			if (block?.type === "text") this.closeText(index);
			else if (block?.type === "thinking") this.closeThinking(index);
			else if (block?.type === "toolCall") this.closeToolCall(index);
		}
	}

	hasToolCalls(): boolean {
		return this.message.content.some((block) => block.type === "toolCall");
	}

	/** Replaces the usage record and recomputes its cost, so partial and failed messages carry cost too. */
	setUsage(reading: UsageReading): Usage {
		const usage: Usage = {
			input: reading.input,
			output: reading.output,
			cacheRead: reading.cacheRead,
			cacheWrite: reading.cacheWrite,
			totalTokens: reading.totalTokens ?? reading.input + reading.output + reading.cacheRead + reading.cacheWrite,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		};
		if (reading.cacheWrite1h !== undefined) usage.cacheWrite1h = reading.cacheWrite1h;
		if (reading.reasoning !== undefined) usage.reasoning = reading.reasoning;
		calculateCost(this.model, usage);
		this.message.usage = usage;
		return usage;
	}

	private markClosed(index: number): boolean {
		if (this.closed.has(index)) return false;
		this.closed.add(index);
		return true;
	}
}

/**
 * Makes `call.arguments` read the partial parse of the text streamed so far when someone reads it (a
 * renderer, an extension), so a delta nobody inspects is never parsed (docs/ai.md, "Streaming cost").
 * Assigning `arguments` (the final parse at the end of the call) turns it back into a plain property.
 */
function liveArguments(call: ToolCall, args: ToolCallArgumentsStream): void {
	Object.defineProperty(call, "arguments", {
		enumerable: true,
		configurable: true,
		get: () => args.current(),
		set: (value: ToolCall["arguments"]) => {
			Object.defineProperty(call, "arguments", { value, enumerable: true, configurable: true, writable: true });
		},
	});
}
