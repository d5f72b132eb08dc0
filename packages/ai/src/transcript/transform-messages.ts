import type { ImageContent, TextContent, ThinkingContent, ToolCall } from "../types/content.js";
import type { AssistantMessage, Message, ToolResultMessage, UserMessage } from "../types/messages.js";
import type { Api, Model } from "../types/model.js";

/**
 * Rewrites a tool call id from another model into one the target API accepts (ids must match between call and result).
 */
export type ToolCallIdNormalizer<TApi extends Api> = (
	id: string,
	model: Model<TApi>,
	source: AssistantMessage,
) => string;

const USER_IMAGE_PLACEHOLDER = "(image omitted: model does not support images)";
const TOOL_IMAGE_PLACEHOLDER = "(tool image omitted: model does not support images)";

/** Replaces each run of consecutive images with one placeholder text block. */
function replaceImageRuns<T extends TextContent | ImageContent>(
	content: readonly T[],
	placeholder: string,
): (T | TextContent)[] {
	const out: (T | TextContent)[] = [];
	let inRun = false;
	for (const block of content) {
		if (block.type === "image") {
			if (!inRun) out.push({ type: "text", text: placeholder });
			inRun = true;
		} else {
			out.push(block);
			inRun = false;
		}
	}
	return out;
}

function isSameModel(message: AssistantMessage, model: Model<Api>): boolean {
	return message.provider === model.provider && message.api === model.api && message.model === model.id;
}

function keepsThinking(block: ThinkingContent): boolean {
	return block.redacted === true || !!block.thinkingSignature || block.thinking.trim().length > 0;
}

function missingResult(call: ToolCall): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId: call.id,
		toolName: call.name,
		content: [{ type: "text", text: "No result provided" }],
		isError: true,
		timestamp: Date.now(),
	};
}

/**
 * Prepares a transcript for `model`: drops failed turns and foreign reasoning, remaps tool-call ids,
 * fills in results for orphaned tool calls and replaces images a non-vision model cannot take.
 * Never mutates its input.
 */
export function transformMessages<TApi extends Api>(
	messages: Message[],
	model: Model<TApi>,
	normalizeToolCallId?: ToolCallIdNormalizer<TApi>,
): Message[] {
	const vision = model.input.includes("image");
	const out: Message[] = [];
	const remappedIds = new Map<string, string>();
	let awaiting: ToolCall[] = [];
	const answered = new Set<string>();
	let heldBack: Message[] = [];

	const settleToolExchange = () => {
		for (const call of awaiting) if (!answered.has(call.id)) out.push(missingResult(call));
		awaiting = [];
		answered.clear();
		out.push(...heldBack);
		heldBack = [];
	};
	const exchangeOpen = () => awaiting.some((call) => !answered.has(call.id));

	for (const original of messages) {
		const content = original.content ?? [];
		switch (original.role) {
			case "system":
				if (exchangeOpen()) heldBack.push(original);
				else out.push(original);
				break;
			case "user": {
				settleToolExchange();
				const userContent = content as UserMessage["content"];
				out.push(
					vision || typeof userContent === "string"
						? { ...original, content: userContent }
						: { ...original, content: replaceImageRuns(userContent, USER_IMAGE_PLACEHOLDER) },
				);
				break;
			}
			case "assistant": {
				if (original.stopReason === "error" || original.stopReason === "aborted") break;
				settleToolExchange();
				const converted = convertAssistant(
					original,
					content as AssistantMessage["content"],
					model,
					normalizeToolCallId,
					remappedIds,
				);
				awaiting = converted.content.filter((block): block is ToolCall => block.type === "toolCall");
				out.push(converted);
				break;
			}
			case "toolResult": {
				const toolCallId = remappedIds.get(original.toolCallId) ?? original.toolCallId;
				answered.add(toolCallId);
				const blocks = content as ToolResultMessage["content"];
				out.push({
					...original,
					toolCallId,
					content: vision ? blocks : replaceImageRuns(blocks, TOOL_IMAGE_PLACEHOLDER),
				});
				if (heldBack.length > 0 && !exchangeOpen()) settleToolExchange();
				break;
			}
		}
	}
	settleToolExchange();
	return out;
}

function convertAssistant<TApi extends Api>(
	message: AssistantMessage,
	content: AssistantMessage["content"],
	model: Model<TApi>,
	normalizeToolCallId: ToolCallIdNormalizer<TApi> | undefined,
	remappedIds: Map<string, string>,
): AssistantMessage {
	if (isSameModel(message, model)) {
		return {
			...message,
			content: content.filter((block) => block.type !== "thinking" || keepsThinking(block)),
		};
	}
	const converted: AssistantMessage["content"] = [];
	for (const block of content) {
		if (block.type === "thinking") continue;
		if (block.type === "text") {
			converted.push({ type: "text", text: block.text });
			continue;
		}
		const { thoughtSignature: _dropped, ...call } = block;
		const id = normalizeToolCallId?.(block.id, model, message) ?? block.id;
		if (id !== block.id) remappedIds.set(block.id, id);
		converted.push({ ...call, id });
	}
	return { ...message, content: converted };
}
