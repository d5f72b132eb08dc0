import { APIError } from "@anthropic-ai/sdk/core/error";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages/messages.js";
import type { SseMessage } from "../shared/sse-reader.js";

type ErrorBody = { error?: { type?: ConstructorParameters<typeof APIError>[4] } } | null;

function parseOrUndefined(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/**
 * One Anthropic SSE message as the SDK's own stream would yield it: `ping` and nameless messages are
 * skipped, an `error` message becomes the SDK's `APIError` (so error formatting is unchanged).
 */
export function decodeAnthropicSse(message: SseMessage, headers: Headers): RawMessageStreamEvent | undefined {
	if (message.event === null || message.event === "ping") return undefined;
	if (message.event === "error") {
		const body = (parseOrUndefined(message.data) ?? message.data) as ErrorBody | string;
		const type = typeof body === "object" ? body?.error?.type : undefined;
		throw new APIError(undefined, body as object, undefined, headers, type);
	}
	if (!message.data) return undefined;
	return JSON.parse(message.data) as RawMessageStreamEvent;
}
