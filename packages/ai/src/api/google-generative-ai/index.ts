import { GoogleGenAI } from "@google/genai";
import type { GoogleOptions } from "../../types/api-options.js";
import type { Api, Model } from "../../types/model.js";
import { GOOGLE_AUTH_HEADERS, googleAdapter, googleHeaders } from "../google-shared/run.js";
import { cachedSdkClient } from "../shared/sdk-client-cache.js";
import { hasRequestAuth, missingApiKeyMessage } from "../shared/simple-options.js";

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

/** Streams one request through the Gemini API (`streamGenerateContent`, SSE); `streamSimple` maps thinking to Gemini levels or budgets. */
export const { stream, streamSimple } = googleAdapter(createClient, true);
