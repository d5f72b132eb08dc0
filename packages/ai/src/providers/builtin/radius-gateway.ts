/**
 * A Radius gateway (docs/providers.md "Radius"): its origin, and the catalog it serves at `/v1/config`
 * for the signed-in account. The catalog names the base URL its models speak `pi-messages` at.
 */
import { oauthEndpoint } from "../../auth/oauth/oauth-endpoint.js";
import type { Model } from "../../types/model.js";

/** The public gateway of the built-in `radius` provider. */
export const DEFAULT_RADIUS_GATEWAY = "https://radius.pi.dev";

/** One gateway's catalog: where its models are served, and their metadata. */
export interface RadiusGatewayConfig {
	baseUrl: string;
	models: Record<string, unknown>[];
}

/** `host[/path]` or a full URL, as an origin with a scheme and without trailing slashes. */
export function normalizeRadiusGatewayUrl(value: string): string {
	const withScheme = /^https?:\/\//iu.test(value) ? value : `https://${value}`;
	return withScheme.replace(/\/+$/u, "");
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A model entry the catalog may carry: the fields every chat model needs, of the right types. */
function isGatewayModel(value: unknown): value is Record<string, unknown> {
	return (
		isObject(value) &&
		typeof value.id === "string" &&
		typeof value.name === "string" &&
		typeof value.reasoning === "boolean" &&
		Array.isArray(value.input) &&
		isObject(value.cost) &&
		typeof value.contextWindow === "number" &&
		typeof value.maxTokens === "number"
	);
}

/** The catalog in `value`, keeping only well-formed models; undefined when it has no base URL or model list. */
export function parseRadiusGatewayConfig(value: unknown): RadiusGatewayConfig | undefined {
	if (!isObject(value) || typeof value.baseUrl !== "string" || !Array.isArray(value.models)) return undefined;
	return { baseUrl: value.baseUrl, models: value.models.filter(isGatewayModel).map((model) => ({ ...model })) };
}

/** The catalog's models as chat models of provider `providerId`, served over `pi-messages`. */
export function radiusModelsFromConfig(providerId: string, config: RadiusGatewayConfig): Model<"pi-messages">[] {
	return config.models.map(
		(model) =>
			({ ...model, api: "pi-messages", provider: providerId, baseUrl: config.baseUrl }) as Model<"pi-messages">,
	);
}

const ERROR_BODY_LIMIT = 512;

/** Fetches the gateway's catalog for the account that `apiKey` (a key or an access token) belongs to. */
export async function fetchRadiusGatewayConfig(
	gateway: string,
	apiKey: string | undefined,
	signal: AbortSignal,
): Promise<RadiusGatewayConfig> {
	const headers: Record<string, string> = { accept: "application/json" };
	if (apiKey) headers.authorization = `Bearer ${apiKey}`;
	const response = await fetch(oauthEndpoint(`${gateway}/v1/config`), { headers, signal });
	if (!response.ok) {
		const body = (await response.text()).trim();
		const shown = body.length > ERROR_BODY_LIMIT ? `${body.slice(0, ERROR_BODY_LIMIT)}…` : body;
		throw new Error(`Could not load the Radius catalog from ${gateway}: ${response.status}: ${shown}`);
	}
	const config = parseRadiusGatewayConfig(await response.json());
	if (!config) throw new Error(`The Radius catalog from ${gateway} is not valid`);
	return config;
}
