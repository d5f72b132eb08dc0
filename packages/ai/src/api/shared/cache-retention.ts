import type { StreamOptions } from "../../types/options.js";
import { resolveCacheRetention } from "../../utils/cache-retention.js";

// Adapters read the retention through this module, next to the helpers that depend on it.
export { resolveCacheRetention };

/** The session id used for caching/affinity, or undefined when caching is off (sessionId is then dropped). */
export function cachingSessionId(
	options: Pick<StreamOptions, "cacheRetention" | "env" | "sessionId">,
): string | undefined {
	if (!options.sessionId || resolveCacheRetention(options) === "none") return undefined;
	return options.sessionId;
}

/** Truncates to at most `max` Unicode code points (never splitting a surrogate pair). */
export function clampCodePoints(text: string, max: number): string {
	const points = Array.from(text);
	return points.length <= max ? text : points.slice(0, max).join("");
}
