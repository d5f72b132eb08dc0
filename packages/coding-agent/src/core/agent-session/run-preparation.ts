import type { AgentMessage } from "@tau/agent";
import type { Api, ImageContent, Model, SystemMessage } from "@tau/ai";
import type { BeforeAgentStartInput, ExtensionMessageDraft } from "../extensions/index.js";
import type { CustomMessage } from "../session/index.js";
import { normalizePromptImages } from "./image-normalization.js";

/** What starts a run: typed input, or a custom message sent with `triggerTurn`. */
export type RunInput =
	| { messageType: "user"; text: string; images?: ImageContent[] }
	| { messageType: "custom"; message: CustomMessage };

export function beforeAgentStartInput(input: RunInput): BeforeAgentStartInput {
	if (input.messageType === "custom") return input;
	return { messageType: "user", prompt: input.text, ...(input.images ? { images: input.images } : {}) };
}

/**
 * The run's starting messages (docs/design/session-runtime.md#prompt-pipeline): an optional system patch, the user (or custom)
 * message, held `nextTurn` messages, then `before_agent_start` messages as custom messages.
 */
export function startingMessages(
	input: RunInput,
	nextTurn: readonly CustomMessage[],
	drafts: readonly ExtensionMessageDraft[],
	patch: SystemMessage | undefined,
): AgentMessage[] {
	const messages: AgentMessage[] = patch ? [patch] : [];
	if (input.messageType === "user") {
		messages.push({
			role: "user",
			content: [{ type: "text", text: input.text }, ...(input.images ?? [])],
			timestamp: Date.now(),
		});
	} else {
		messages.push(input.message);
	}
	messages.push(...nextTurn);
	for (const draft of drafts) {
		const custom: CustomMessage = {
			role: "custom",
			customType: draft.customType,
			content: draft.content,
			display: draft.display,
			timestamp: Date.now(),
		};
		if (draft.details !== undefined) custom.details = draft.details;
		messages.push(custom);
	}
	return messages;
}

/** Prompt images normalized with the limits model (the one chosen after `before_agent_start`). */
export function withNormalizedImages(input: RunInput, model: Model<Api> | undefined, autoResize: boolean): RunInput {
	if (input.messageType !== "user" || !input.images || input.images.length === 0) return input;
	const normalized = normalizePromptImages(input.text, input.images, model, autoResize);
	return { messageType: "user", text: normalized.text, images: normalized.images };
}

/** The message `sendCustomMessage` delivers (`display` defaults to true, content to none). */
export function customMessageOf(input: {
	customType: string;
	content?: CustomMessage["content"];
	display?: boolean;
	details?: unknown;
}): CustomMessage {
	const message: CustomMessage = {
		role: "custom",
		customType: input.customType,
		content: input.content ?? [],
		display: input.display ?? true,
		timestamp: Date.now(),
	};
	if (input.details !== undefined) message.details = input.details;
	return message;
}

/** `sendUserMessage` content as prompt text (text parts joined by newlines) and images. */
export function splitUserContent(content: string | (ImageContent | { type: "text"; text: string })[]): {
	text: string;
	images: ImageContent[];
} {
	const parts = typeof content === "string" ? [{ type: "text" as const, text: content }] : content;
	return {
		text: parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n"),
		images: parts.filter((part): part is ImageContent => part.type === "image"),
	};
}
