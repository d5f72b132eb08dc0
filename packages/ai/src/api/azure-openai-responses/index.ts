import { AzureOpenAI } from "openai";
import { resolveAzureApiVersion, resolveAzureBaseUrl, resolveDeploymentName } from "../../endpoints/azure-endpoint.js";
import type { AssistantMessageEventStream } from "../../stream/assistant-message-event-stream.js";
import type { AzureOpenAIResponsesOptions } from "../../types/api-options.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import type { SimpleStreamOptions } from "../../types/options.js";
import { responsesHeaders } from "../openai-responses/headers.js";
import { type ResponsesBackend, streamResponses } from "../openai-responses/run.js";
import { cachedSdkClient } from "../shared/sdk-client-cache.js";
import { sdkClientOptions } from "../shared/sdk-client-options.js";
import { assertDirectAuth, simpleEffortOptions } from "../shared/simple-options.js";

/** Azure takes its key as `api-key`, or an Entra ID bearer token as `Authorization`. */
const AZURE_AUTH_HEADERS = ["api-key", "authorization"] as const;

const azureBackend: ResponsesBackend<AzureOpenAIResponsesOptions> = {
	errorPrefix: "Azure OpenAI API error",
	authHeaders: AZURE_AUTH_HEADERS,
	headers: responsesHeaders,
	// The deployment serves the request: it replaces the catalog id as the request's model.
	payload: (payload, model, options) => ({ ...payload, model: resolveDeploymentName(model, options) }),
	client(model, options, headers) {
		const baseURL = resolveAzureBaseUrl(model, options);
		const apiVersion = resolveAzureApiVersion(options);
		const apiKey = options.apiKey;
		return cachedSdkClient(
			{
				kind: `azure:${apiVersion}`,
				baseUrl: baseURL,
				credential: apiKey ?? null,
				headers,
				timeoutMs: options.timeoutMs,
				fetch: options.fetch,
			},
			() =>
				new AzureOpenAI({
					...sdkClientOptions({ ...model, baseUrl: baseURL }, options, headers),
					// Without a key, a header (an Entra ID token) authenticates; the SDK still wants a value.
					apiKey: apiKey ?? "header-auth",
					apiVersion,
				}),
		);
	},
};

/** Streams one request through an Azure OpenAI deployment's Responses API. */
export function stream(
	model: Model<Api>,
	context: TranscriptContext,
	options: AzureOpenAIResponsesOptions = {},
): AssistantMessageEventStream {
	return streamResponses(model, context, options, azureBackend);
}

/** Provider-neutral options: the clamped thinking level becomes `reasoningEffort` unless it is off. */
export function streamSimple(
	model: Model<Api>,
	context: TranscriptContext,
	options: SimpleStreamOptions = {},
): AssistantMessageEventStream {
	assertDirectAuth(model, options, AZURE_AUTH_HEADERS);
	return stream(model, context, simpleEffortOptions(model, context, options));
}
