import type { AssistantMessageEvent } from "../types/events.js";
import type { AssistantMessage } from "../types/messages.js";
import type { Api, Model } from "../types/model.js";
import { zeroUsage } from "../types/usage.js";

/** The text of anything thrown: an Error's message, a string as is, anything else as JSON. */
export function describeThrown(error: unknown): string {
	if (error instanceof Error) return error.message || String(error);
	if (typeof error === "string") return error;
	if (error !== null && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") {
		return (error as { message: string }).message;
	}
	try {
		return JSON.stringify(error) ?? String(error);
	} catch {
		return String(error);
	}
}

/** An empty assistant message recording a failure that happened before any output. */
export function failedAssistantMessage(
	model: Pick<Model<Api>, "api" | "provider" | "id">,
	error: unknown,
	signal: AbortSignal | undefined,
	timestamp: number,
): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: zeroUsage(),
		stopReason: signal?.aborted ? "aborted" : "error",
		errorMessage: describeThrown(error) || "Unknown error",
		timestamp,
	};
}

/** The terminal `error` event carrying `message`. */
export function errorEvent(message: AssistantMessage): AssistantMessageEvent {
	return { type: "error", reason: message.stopReason === "aborted" ? "aborted" : "error", error: message };
}
