import OpenAI from "openai";
import type { Api, Model } from "../../types/model.js";
import type { StreamOptions } from "../../types/options.js";
import { cachedSdkClient } from "./sdk-client-cache.js";
import { sdkClientOptions } from "./sdk-client-options.js";

/** Headers that authenticate an OpenAI-compatible request by themselves. */
export const OPENAI_AUTH_HEADERS = ["authorization", "cf-aig-authorization"] as const;

/** Placeholder key when a header authenticates: the SDK insists on a key, the header replaces its value. */
const HEADER_AUTH_PLACEHOLDER = "header-auth";

/**
 * An `openai` SDK client for these options, reused across requests; organization, project and webhook
 * secret are pinned so nothing is read from the ambient environment.
 */
export function createOpenAIClient(
	model: Pick<Model<Api>, "baseUrl">,
	options: Pick<StreamOptions, "apiKey" | "timeoutMs" | "fetch">,
	headers: Record<string, string | null>,
): OpenAI {
	const apiKey = options.apiKey || HEADER_AUTH_PLACEHOLDER;
	return cachedSdkClient(
		{
			kind: "openai",
			baseUrl: model.baseUrl,
			credential: apiKey,
			headers,
			timeoutMs: options.timeoutMs,
			fetch: options.fetch,
		},
		() =>
			new OpenAI({
				apiKey,
				organization: null,
				project: null,
				webhookSecret: null,
				...sdkClientOptions(model, options, headers),
			}),
	);
}
