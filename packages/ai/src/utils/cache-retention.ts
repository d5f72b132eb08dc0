import type { StreamOptions } from "../types/options.js";
import type { CacheRetention } from "../types/thinking.js";

const RETENTION_ENV_VARS = ["TAU_CACHE_RETENTION", "PI_CACHE_RETENTION"];

/** Explicit option, else "long" when the env asks for it (request env first), else "short" (docs/ai.md "Request options"). */
export function resolveCacheRetention(options: Pick<StreamOptions, "cacheRetention" | "env">): CacheRetention {
	if (options.cacheRetention) return options.cacheRetention;
	for (const source of [options.env, process.env]) {
		for (const name of RETENTION_ENV_VARS) {
			const value = source?.[name];
			if (value !== undefined && value !== "") return value === "long" ? "long" : "short";
		}
	}
	return "short";
}
