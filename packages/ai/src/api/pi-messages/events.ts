import type { JsonObject } from "../../types/json.js";
import type { PiMessagesEvent } from "../../types/pi-messages.js";
import { appendAssistantMessageDiagnostic } from "../../utils/diagnostics.js";
import type { AssistantOutput } from "../shared/assistant-output.js";

/**
 * Applies the backend's events to the working message. The backend sends the final text, thinking and
 * tool call of each block; they replace what was streamed. Indices come off the wire, so each must name
 * the next block (a start) or an existing one.
 */
export class PiMessagesEventMapper {
	constructor(private readonly output: AssistantOutput) {}

	handle(event: PiMessagesEvent): void {
		if ("contentIndex" in event) this.checkIndex(event);
		switch (event.type) {
			case "start":
				return;
			case "text_start":
				this.output.openText();
				return;
			case "text_delta":
				this.output.textDelta(event.contentIndex, event.delta);
				return;
			case "text_end":
				this.output.closeText(event.contentIndex, { text: event.content, signature: event.contentSignature });
				return;
			case "thinking_start":
				this.output.openThinking();
				return;
			case "thinking_delta":
				this.output.thinkingDelta(event.contentIndex, event.delta);
				return;
			case "thinking_end":
				if (event.redacted) Object.assign(this.output.message.content[event.contentIndex]!, { redacted: true });
				this.output.closeThinking(event.contentIndex, {
					thinking: event.content,
					signature: event.contentSignature,
				});
				return;
			case "toolcall_start":
				this.output.openToolCall({ id: event.id, name: event.toolName });
				return;
			case "toolcall_delta":
				this.output.toolCallDelta(event.contentIndex, event.delta);
				return;
			case "toolcall_end": {
				const { arguments: args, ...rest } = event.toolCall;
				this.output.replaceToolArguments(event.contentIndex, JSON.stringify(args ?? {}));
				Object.assign(this.output.toolCall(event.contentIndex), rest);
				this.output.closeToolCall(event.contentIndex);
				return;
			}
			case "done":
			case "error":
				this.finish(event);
		}
	}

	private checkIndex(event: PiMessagesEvent & { contentIndex: unknown }): void {
		const index = event.contentIndex;
		const count = this.output.message.content.length;
		const last = event.type.endsWith("_start") ? count : count - 1;
		const valid = typeof index === "number" && Number.isInteger(index) && index >= 0;
		if (!valid || index > last || (event.type.endsWith("_start") && index !== count)) {
			throw new Error(`Invalid contentIndex ${JSON.stringify(index)} in pi-messages ${event.type} event`);
		}
	}

	private finish(event: Extract<PiMessagesEvent, { type: "done" | "error" }>): void {
		const message = this.output.message;
		message.stopReason = event.reason;
		message.usage = event.usage;
		if (event.responseId !== undefined) message.responseId = event.responseId;
		if (event.responseModel !== undefined) message.responseModel = event.responseModel;
		if (event.providerThinkingLevel !== undefined) message.providerThinkingLevel = event.providerThinkingLevel;
		if (event.type === "error") message.errorMessage = event.errorMessage ?? "pi-messages backend reported an error";
		if (event.rewrite) {
			appendAssistantMessageDiagnostic(message, {
				type: "pi_messages_rewrite",
				timestamp: Date.now(),
				details: { ...event.rewrite } as unknown as JsonObject,
			});
		}
	}
}
