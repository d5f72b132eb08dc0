import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { Messages } from "@anthropic-ai/sdk/resources/messages/messages";
import { getIdentityHeaders } from "../../identity/client-identity.js";
import { nodeHttpFetch } from "../../network/node-http-fetch.js";
import type { AnthropicOptions } from "../../types/api-options.js";
import type { Api, Model } from "../../types/model.js";
import { mergeHeaders } from "../../utils/headers.js";
import { cachingSessionId } from "../shared/cache-retention.js";
import { headerValue } from "../shared/request-headers.js";
import { cachedSdkClient } from "../shared/sdk-client-cache.js";
import { sdkClientOptions } from "../shared/sdk-client-options.js";
import type { ResolvedAnthropicCompat } from "./payload.js";
import { isSubscriptionToken, subscriptionHeaders } from "./subscription-token.js";

/** Headers that authenticate a request by themselves (then no API key is needed). */
export const ANTHROPIC_AUTH_HEADERS = ["authorization", "x-api-key", "cf-aig-authorization"] as const;

/**
 * The SDK's base client with only the Messages resource (what tau calls), so a bundle leaves out the
 * SDK's other resources, about half of its code parsed at every start; ambient credential discovery
 * is off: tau's resolver is the only auth source.
 */
class ResolvedAuthAnthropic extends BaseAnthropic {
	readonly messages: Messages = new Messages(this);

	protected override _shouldResolveDefaultCredentials(): boolean {
		return false;
	}
}

/**
 * How the key travels: a Claude subscription token and a Copilot token (Copilot's Claude models) as
 * bearer tokens, any other key as `x-api-key`.
 */
function requestAuthHeaders(model: Model<Api>, apiKey: string | undefined): Record<string, string> | undefined {
	if (!apiKey) return undefined;
	if (model.provider === "github-copilot") return { authorization: `Bearer ${apiKey}` };
	return isSubscriptionToken(apiKey) ? subscriptionHeaders(apiKey) : { "x-api-key": apiKey };
}

/**
 * The SDK records an OpenTelemetry span per request unless told otherwise, which costs each request
 * a few milliseconds; pi's SDK records none. Off unless `ANTHROPIC_OPEN_TELEMETRY` is set, in which case
 * the SDK follows the variable as it documents.
 */
function openTelemetryOption(): false | undefined {
	return process.env.ANTHROPIC_OPEN_TELEMETRY === undefined ? false : undefined;
}

/** An SDK client with the Messages resource (a caller's prebuilt `Anthropic` client is one too). */
export type AnthropicMessagesClient = BaseAnthropic & { messages: Messages };

/** Every header of the request, low to high precedence (docs/design/ai-adapters.md#header-precedence, docs/design/ai-adapters.md#anthropic-messages). */
export function anthropicHeaders(
	model: Model<Api>,
	options: AnthropicOptions,
	compat: ResolvedAnthropicCompat,
): Record<string, string | null> {
	const sessionId = compat.sendSessionAffinityHeaders ? cachingSessionId(options) : undefined;
	const affinityHeader = compat.sessionAffinityFormat === "openrouter" ? "x-session-id" : "x-session-affinity";
	return mergeHeaders(
		getIdentityHeaders(model, options.identity),
		{ accept: "application/json", "anthropic-dangerous-direct-browser-access": "true" },
		sessionId ? { [affinityHeader]: sessionId } : undefined,
		requestAuthHeaders(model, options.apiKey),
		model.headers,
		options.headers,
	);
}

/**
 * The per-request `anthropic-beta` header: an explicit header wins (deduplicated), an explicit `null`
 * suppresses it, and with neither and no betas nothing is set (a host client's own default stays).
 */
export function anthropicBetaHeader(
	headers: Record<string, string | null>,
	betas: string[],
): { "anthropic-beta": string | null } | undefined {
	const explicit = headerValue(headers, "anthropic-beta");
	if (explicit === null) return { "anthropic-beta": null };
	const list = explicit === undefined ? betas : explicit.split(",");
	const unique = [...new Set(list.map((beta) => beta.trim()).filter(Boolean))];
	if (unique.length > 0) return { "anthropic-beta": unique.join(",") };
	return explicit === undefined ? undefined : { "anthropic-beta": null };
}

/** The SDK client for these options, reused across requests (the API key travels in `headers`). */
export function createAnthropicClient(
	model: Model<Api>,
	options: AnthropicOptions,
	headers: Record<string, string | null>,
): AnthropicMessagesClient {
	return cachedSdkClient(
		{
			kind: "anthropic",
			baseUrl: model.baseUrl,
			credential: null,
			headers,
			timeoutMs: options.timeoutMs,
			fetch: options.fetch,
		},
		() =>
			new ResolvedAuthAnthropic({
				apiKey: null,
				authToken: null,
				openTelemetry: openTelemetryOption(),
				// Without a caller's fetch, requests go over node:http (docs/design/ai-adapters.md#http-transport).
				...sdkClientOptions(model, { ...options, fetch: options.fetch ?? nodeHttpFetch }, headers),
			}),
	);
}
