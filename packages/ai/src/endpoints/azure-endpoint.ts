import type { AzureEndpointOptions } from "../types/api-options.js";
import type { Api, Model } from "../types/model.js";
import { requestEnv } from "../utils/request-env.js";

/** The API version when neither the options nor `AZURE_OPENAI_API_VERSION` give one (the v1 API). */
const DEFAULT_API_VERSION = "v1";
const AZURE_HOST_SUFFIXES = [".openai.azure.com", ".cognitiveservices.azure.com", ".ai.azure.com"];

/** `AZURE_OPENAI_DEPLOYMENT_NAME_MAP`: `model=deployment` pairs separated by commas. */
function deploymentMap(value: string | undefined): Map<string, string> {
	const map = new Map<string, string>();
	for (const entry of value?.split(",") ?? []) {
		const [modelId, deployment] = entry.split("=", 2).map((part) => part.trim());
		if (modelId && deployment) map.set(modelId, deployment);
	}
	return map;
}

/** The deployment that serves `model`: the option, the env map, else the model id itself. */
export function resolveDeploymentName(model: Pick<Model<Api>, "id">, options?: AzureEndpointOptions): string {
	if (options?.azureDeploymentName) return options.azureDeploymentName;
	return deploymentMap(requestEnv("AZURE_OPENAI_DEPLOYMENT_NAME_MAP", options)).get(model.id) ?? model.id;
}

/** A bare Azure resource URL gets the `/openai/v1` path the v1 API is served under. */
function normalizeBaseUrl(baseUrl: string): string {
	let url: URL;
	try {
		url = new URL(baseUrl.trim().replace(/\/+$/, ""));
	} catch {
		throw new Error(`Invalid Azure OpenAI base URL: ${baseUrl}`);
	}
	const path = url.pathname.replace(/\/+$/, "");
	const azureHost = AZURE_HOST_SUFFIXES.some((suffix) => url.hostname.endsWith(suffix));
	if (azureHost && ["", "/openai", "/openai/v1/responses"].includes(path)) {
		url.pathname = "/openai/v1";
		url.search = "";
	}
	return url.toString().replace(/\/+$/, "");
}

/** The endpoint: option or `AZURE_OPENAI_BASE_URL`, else the resource name, else the model's base URL. */
export function resolveAzureBaseUrl(model: Pick<Model<Api>, "baseUrl">, options?: AzureEndpointOptions): string {
	const explicit = options?.azureBaseUrl?.trim() || requestEnv("AZURE_OPENAI_BASE_URL", options)?.trim();
	const resource = options?.azureResourceName || requestEnv("AZURE_OPENAI_RESOURCE_NAME", options);
	const baseUrl = explicit || (resource ? `https://${resource}.openai.azure.com/openai/v1` : model.baseUrl);
	if (!baseUrl) {
		throw new Error(
			"Azure OpenAI base URL is required. Set AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME, or pass azureBaseUrl, azureResourceName, or model.baseUrl.",
		);
	}
	return normalizeBaseUrl(baseUrl);
}

export function resolveAzureApiVersion(options?: AzureEndpointOptions): string {
	return options?.azureApiVersion || requestEnv("AZURE_OPENAI_API_VERSION", options) || DEFAULT_API_VERSION;
}
