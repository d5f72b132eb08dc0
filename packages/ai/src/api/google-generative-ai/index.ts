import { GoogleGenAI } from "@google/genai";
import type { AssistantMessageEventStream } from "../../stream/assistant-message-event-stream.js";
import type { GoogleOptions } from "../../types/api-options.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import type { SimpleStreamOptions } from "../../types/options.js";
import { GOOGLE_AUTH_HEADERS, googleHeaders, googleSimpleOptions, streamGoogleRequest } from "../google-shared/run.js";
import { cachedSdkClient } from "../shared/sdk-client-cache.js";
import { assertDirectAuth, hasRequestAuth, missingApiKeyMessage } from "../shared/simple-options.js";

/** A client of the Gemini API at the model's base URL (which already names the API version). */
function createClient(model: Model<Api>, options: GoogleOptions): GoogleGenAI {
	if (!hasRequestAuth(model, options, GOOGLE_AUTH_HEADERS)) throw new Error(missingApiKeyMessage(model));
	const headers = googleHeaders(model, options);
	const apiKey = options.apiKey ?? "";
	return cachedSdkClient(
		{
			kind: "google",
			baseUrl: model.baseUrl,
			credential: apiKey,
			headers,
			timeoutMs: options.timeoutMs,
			fetch: undefined,
		},
		() =>
			new GoogleGenAI({
				apiKey,
				httpOptions: {
					...(model.baseUrl ? { baseUrl: model.baseUrl, apiVersion: "" } : {}),
					headers,
					...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
				},
			}),
	);
}

/** Streams one request through the Gemini API (`streamGenerateContent`, SSE). */
export function stream(
	model: Model<Api>,
	context: TranscriptContext,
	options: GoogleOptions = {},
): AssistantMessageEventStream {
	return streamGoogleRequest(model, context, options, () => createClient(model, options));
}

/** Provider-neutral options mapped onto Gemini thinking levels or budgets. */
export function streamSimple(
	model: Model<Api>,
	context: TranscriptContext,
	options: SimpleStreamOptions = {},
): AssistantMessageEventStream {
	assertDirectAuth(model, options, GOOGLE_AUTH_HEADERS);
	return stream(model, context, googleSimpleOptions(model, context, options));
}
