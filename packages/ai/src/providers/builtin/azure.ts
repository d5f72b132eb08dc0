import { resolveAzureBaseUrl, resolveDeploymentName } from "../../endpoints/azure-endpoint.js";
import type { AzureEndpointOptions } from "../../types/api-options.js";
import type { Provider } from "../../types/provider.js";
import { catalogProvider } from "../catalog/catalog-provider.js";
import { rewritingStreams } from "../catalog/rewriting-streams.js";
import { azureOpenAIResponsesApi } from "../lazy-apis/azure-openai-responses.js";
import { openAICompletionsApi } from "../lazy-apis/openai-completions.js";

/**
 * Azure's chat-completions models go through the generic adapter: the endpoint comes from the env, and
 * the deployment name replaces the catalog id as the request's `model`.
 */
const azureCompletions = rewritingStreams(openAICompletionsApi(), (model, options) => {
	const endpoint = options as AzureEndpointOptions | undefined;
	const requestModel = { ...model, baseUrl: resolveAzureBaseUrl(model, endpoint) };
	const deployment = resolveDeploymentName(model, endpoint);
	if (deployment === model.id) return { model: requestModel, options };
	const onPayload = options?.onPayload;
	return {
		model: requestModel,
		options: {
			...(options ?? {}),
			onPayload: async (payload: unknown, payloadModel: typeof model) => {
				const renamed = { ...(payload as Record<string, unknown>), model: deployment };
				return (await onPayload?.(renamed, payloadModel)) ?? renamed;
			},
		} as typeof options,
	};
});

/**
 * The Azure OpenAI provider over its shipped catalog, authorized by `AZURE_OPENAI_API_KEY` or a stored key, at the
 * endpoint configured for the resource.
 */
export function azureProvider(): Provider {
	return catalogProvider({
		id: "azure",
		name: "Azure",
		keyName: "Azure OpenAI API key",
		envVars: ["AZURE_OPENAI_API_KEY"],
		api: { "azure-openai-responses": azureOpenAIResponsesApi(), "openai-completions": azureCompletions },
	});
}
