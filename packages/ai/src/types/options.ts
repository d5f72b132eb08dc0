import type { ClientIdentity } from "./identity.js";
import type { Api, Model } from "./model.js";
import type { CacheRetention, ThinkingBudgets, ThinkingLevel } from "./thinking.js";
import type { ToolChoice } from "./tools.js";

/**
 * How a request is carried: server-sent events, a WebSocket (optionally kept and reused), or whichever the API prefers.
 */
export type Transport = "sse" | "websocket" | "websocket-cached" | "auto";

/** The HTTP status and headers of a provider's response, passed to `onResponse`. */
export interface ProviderResponseInfo {
	status: number;
	/** Header names lower-cased. */
	headers: Record<string, string>;
}

/**
 * Options every provider request takes: abort signal, API key, headers, fetch, retries and hooks on the payload and
 * response.
 */
export interface ProviderRequestOptions<TModel = Model<Api>> {
	signal?: AbortSignal;
	/** Accepted and ignored in tau 1.0. */
	telemetry?: unknown;
	apiKey?: string;
	/** Custom fetch for HTTP adapters. */
	fetch?: typeof fetch;
	/** Request-scoped env overrides; win over process.env. */
	env?: Record<string, string>;
	/** Awaited after the payload is built; a non-undefined return replaces it; a throw fails the request. */
	onPayload?: (payload: unknown, model: TModel) => unknown | undefined | Promise<unknown | undefined>;
	/** Awaited after response headers arrive, before `start`; a throw fails the request. */
	onResponse?: (response: ProviderResponseInfo, model: TModel) => void | Promise<void>;
	/** `null` suppresses a lower-level default header of the same name. */
	headers?: Record<string, string | null>;
	identity?: ClientIdentity;
	/** SDK request timeout; SDK default when absent. */
	timeoutMs?: number;
	/** Request-level retries; default 0 (off). */
	maxRetries?: number;
	/** Cap on a server-requested retry delay; default 60000; 0 disables the cap. */
	maxRetryDelayMs?: number;
}

/**
 * Options of one streaming request: sampling, output limit, caching, session id, transport and a hook on each provider
 * event.
 */
export interface StreamOptions extends ProviderRequestOptions {
	/** Awaited in stream order for each parsed provider event; treat `data` as read-only. */
	onProviderStreamEvent?: (data: unknown, model: Model<Api>) => void | Promise<void>;
	temperature?: number;
	/** OpenAI-compatible adapters only; merged last into the body. */
	samplingParams?: Record<string, unknown>;
	maxTokens?: number;
	/** Ignored by tau 1.0 adapters (SSE only). */
	transport?: Transport;
	/** Default "short" (or "long" via TAU_CACHE_RETENTION / PI_CACHE_RETENTION). */
	cacheRetention?: CacheRetention;
	sessionId?: string;
	disableContinuation?: boolean;
	websocketConnectTimeoutMs?: number;
	metadata?: Record<string, unknown>;
}

/**
 * The portable request options every API understands: a thinking level instead of API-specific reasoning fields, tool
 * choice, deferred mode.
 */
export interface SimpleStreamOptions extends StreamOptions {
	toolChoice?: ToolChoice;
	/** Absent means thinking off. */
	reasoning?: ThinkingLevel;
	deferred?: boolean | { window?: "15m" | "1h" | "24h" };
	/** Token-budget providers only. */
	thinkingBudgets?: ThinkingBudgets;
}
