import { GoogleGenAI, ResourceScope } from "@google/genai";
import type { GoogleVertexOptions } from "../../types/api-options.js";
import type { Api, Model } from "../../types/model.js";
import { requestEnv } from "../../utils/request-env.js";
import { googleAdapter, googleHeaders } from "../google-shared/run.js";
import { cachedSdkClient } from "../shared/sdk-client-cache.js";

const API_VERSION = "v1";

/** A catalog base URL with a `{location}` placeholder means the SDK's regional default endpoint. */
function customBaseUrl(baseUrl: string): { baseUrl: string; apiVersion?: string } | undefined {
	const trimmed = baseUrl.trim();
	if (!trimmed || trimmed.includes("{location}")) return undefined;
	const versioned = new URL(trimmed).pathname.split("/").some((part) => /^v\d+(?:beta\d*)?$/.test(part));
	return versioned ? { baseUrl: trimmed, apiVersion: "" } : { baseUrl: trimmed };
}

function required(value: string | undefined, message: string): string {
	if (!value) throw new Error(message);
	return value;
}

/**
 * A Vertex AI client: with an API key (express mode), or with Application Default Credentials plus a
 * project and a location (from the options or the request env; docs/providers.md).
 */
function createClient(model: Model<Api>, options: GoogleVertexOptions): GoogleGenAI {
	const headers = googleHeaders(model, options);
	const endpoint = customBaseUrl(model.baseUrl);
	const httpOptions = {
		...(endpoint ? { ...endpoint, baseUrlResourceScope: ResourceScope.COLLECTION } : {}),
		headers,
		...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
	};
	const apiKey = options.apiKey?.trim();
	if (apiKey) {
		return cachedSdkClient(
			{
				kind: "vertex-key",
				baseUrl: model.baseUrl,
				credential: apiKey,
				headers,
				timeoutMs: options.timeoutMs,
				fetch: undefined,
			},
			() => new GoogleGenAI({ vertexai: true, apiKey, apiVersion: API_VERSION, httpOptions }),
		);
	}
	const project = required(
		options.project || requestEnv("GOOGLE_CLOUD_PROJECT", options) || requestEnv("GCLOUD_PROJECT", options),
		"Vertex AI requires a project ID. Set GOOGLE_CLOUD_PROJECT/GCLOUD_PROJECT or pass project in options.",
	);
	const location = required(
		options.location || requestEnv("GOOGLE_CLOUD_LOCATION", options),
		"Vertex AI requires a location. Set GOOGLE_CLOUD_LOCATION or pass location in options.",
	);
	const keyFilename = requestEnv("GOOGLE_APPLICATION_CREDENTIALS", options);
	return cachedSdkClient(
		{
			kind: "vertex-adc",
			baseUrl: model.baseUrl,
			credential: JSON.stringify([project, location, keyFilename ?? null]),
			headers,
			timeoutMs: options.timeoutMs,
			fetch: undefined,
		},
		() =>
			new GoogleGenAI({
				vertexai: true,
				project,
				location,
				apiVersion: API_VERSION,
				...(keyFilename ? { googleAuthOptions: { keyFilename } } : {}),
				httpOptions,
			}),
	);
}

/** Streams one request through Vertex AI's Gemini endpoint (`streamGenerateContent`, SSE); `streamSimple` maps thinking to Gemini levels or budgets. */
export const { stream, streamSimple } = googleAdapter(createClient, false);
