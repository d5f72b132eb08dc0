import type { CacheWarmingDecisionEvent, CacheWarmingDecisionResult, ProviderHeaders } from "../../api/events.js";
import type { DispatchHost } from "./dispatch-host.js";

/** `before_provider_headers`: handlers edit `headers` in place (`null` deletes); returns are ignored. */
export async function dispatchBeforeProviderHeaders(
	host: DispatchHost,
	headers: ProviderHeaders,
): Promise<ProviderHeaders> {
	const handlers = host.handlers("before_provider_headers");
	if (handlers.length === 0) return headers;
	const event = { type: "before_provider_headers" as const, headers };
	const ctx = host.context();
	for (const { extensionPath, handler } of handlers) {
		try {
			await handler(event, ctx);
		} catch (error) {
			host.report(extensionPath, "before_provider_headers", error);
		}
	}
	return event.headers;
}

/** `before_provider_request`: any non-`undefined` return replaces the payload for later handlers. */
export async function dispatchBeforeProviderRequest(host: DispatchHost, payload: unknown): Promise<unknown> {
	const handlers = host.handlers("before_provider_request");
	if (handlers.length === 0) return payload;
	const event = { type: "before_provider_request" as const, payload };
	const ctx = host.context();
	for (const { extensionPath, handler } of handlers) {
		try {
			const result = await handler(event, ctx);
			if (result !== undefined) event.payload = result;
		} catch (error) {
			host.report(extensionPath, "before_provider_request", error);
		}
	}
	return event.payload;
}

/** `cache_warming_decision`: the last handler that returns an action decides. */
export async function dispatchCacheWarmingDecision(
	host: DispatchHost,
	event: CacheWarmingDecisionEvent,
): Promise<"warm" | "stop"> {
	let action = event.action;
	const ctx = host.context();
	for (const { extensionPath, handler } of host.handlers("cache_warming_decision")) {
		try {
			const result = (await handler(event, ctx)) as CacheWarmingDecisionResult | undefined;
			if (result?.action === "warm" || result?.action === "stop") action = result.action;
		} catch (error) {
			host.report(extensionPath, "cache_warming_decision", error);
		}
	}
	return action;
}
