import {
	type AssistantMessage,
	type AssistantMessageEvent,
	type TextContent,
	type ThinkingContent,
	type ToolCall,
	ToolCallArgumentsStream,
} from "@tau/ai";
import type { ProxyAssistantMessageEvent } from "./types.js";

type Block = AssistantMessage["content"][number];

/**
 * Rebuilds full assistant events from the proxy's slimmed events by keeping one local partial message.
 * Throws when an event targets a block of the wrong type.
 */
export class ProxyPartialBuilder {
	readonly #argumentStreams = new Map<number, ToolCallArgumentsStream>();

	constructor(readonly partial: AssistantMessage) {}

	/** The rebuilt event, or `undefined` for an unknown event type. */
	apply(event: ProxyAssistantMessageEvent): AssistantMessageEvent | undefined {
		const partial = this.partial;
		switch (event.type) {
			case "start":
				return { type: "start", partial };
			case "text_start":
				partial.content[event.contentIndex] = { type: "text", text: "" };
				return { type: "text_start", contentIndex: event.contentIndex, partial };
			case "text_delta":
				this.#block(event.contentIndex, "text").text += event.delta;
				return { type: "text_delta", contentIndex: event.contentIndex, delta: event.delta, partial };
			case "text_end": {
				const block = this.#block(event.contentIndex, "text");
				if (event.contentSignature !== undefined) block.textSignature = event.contentSignature;
				return { type: "text_end", contentIndex: event.contentIndex, content: block.text, partial };
			}
			case "thinking_start":
				partial.content[event.contentIndex] = { type: "thinking", thinking: "" };
				return { type: "thinking_start", contentIndex: event.contentIndex, partial };
			case "thinking_delta":
				this.#block(event.contentIndex, "thinking").thinking += event.delta;
				return { type: "thinking_delta", contentIndex: event.contentIndex, delta: event.delta, partial };
			case "thinking_end": {
				const block = this.#block(event.contentIndex, "thinking");
				if (event.contentSignature !== undefined) block.thinkingSignature = event.contentSignature;
				return { type: "thinking_end", contentIndex: event.contentIndex, content: block.thinking, partial };
			}
			case "toolcall_start":
				partial.content[event.contentIndex] = {
					type: "toolCall",
					id: event.id,
					name: event.toolName,
					arguments: {},
				};
				this.#argumentStreams.set(event.contentIndex, new ToolCallArgumentsStream());
				return { type: "toolcall_start", contentIndex: event.contentIndex, partial };
			case "toolcall_delta": {
				const block = this.#block(event.contentIndex, "toolCall");
				const argumentsStream = this.#argumentStreams.get(event.contentIndex) ?? new ToolCallArgumentsStream();
				this.#argumentStreams.set(event.contentIndex, argumentsStream);
				// A new block object so reactive views notice the change.
				partial.content[event.contentIndex] = { ...block, arguments: argumentsStream.append(event.delta) };
				return { type: "toolcall_delta", contentIndex: event.contentIndex, delta: event.delta, partial };
			}
			case "toolcall_end": {
				const block = this.#block(event.contentIndex, "toolCall");
				Object.assign(block, event.toolCall);
				this.#argumentStreams.delete(event.contentIndex);
				return { type: "toolcall_end", contentIndex: event.contentIndex, toolCall: block, partial };
			}
			case "done":
				this.#settle(event.reason, event.usage, event.providerThinkingLevel);
				return { type: "done", reason: event.reason, message: partial };
			case "error":
				this.#settle(event.reason, event.usage, event.providerThinkingLevel);
				if (event.errorMessage !== undefined) partial.errorMessage = event.errorMessage;
				return { type: "error", reason: event.reason, error: partial };
			default:
				return undefined;
		}
	}

	#settle(stopReason: AssistantMessage["stopReason"], usage: AssistantMessage["usage"], level: string | undefined) {
		this.partial.stopReason = stopReason;
		this.partial.usage = usage;
		if (level !== undefined) this.partial.providerThinkingLevel = level;
	}

	#block(index: number, type: "text"): TextContent;
	#block(index: number, type: "thinking"): ThinkingContent;
	#block(index: number, type: "toolCall"): ToolCall;
	#block(index: number, type: Block["type"]): Block {
		const block = this.partial.content[index];
		if (block?.type !== type) {
			throw new Error(`Proxy event for a ${type} block at index ${index}, found ${block?.type ?? "no block"}`);
		}
		return block;
	}
}
