import { APIError } from "openai";
import type { SseMessage } from "./sse-reader.js";

/**
 * A decoder for one OpenAI SSE response (Chat Completions or Responses) that yields what the SDK's own
 * stream would: nothing after `[DONE]`, and a chunk carrying `error` becomes the SDK's `APIError`.
 */
export function openAiSseDecoder<TEvent>(): (message: SseMessage, headers: Headers) => TEvent | undefined {
	let done = false;
	return (message, headers) => {
		if (done) return undefined;
		if (message.data.startsWith("[DONE]")) {
			done = true;
			return undefined;
		}
		const data = JSON.parse(message.data) as { error?: unknown } | null;
		if (data?.error) throw new APIError(undefined, data.error as object, undefined, headers);
		return data as TEvent;
	};
}
