import type { ClientAttribution, ClientIdentity } from "../types/identity.js";
import { TAU_AI_VERSION } from "../version.js";

export const TAU_ATTRIBUTION: ClientAttribution = {
	name: "tau",
	url: "https://github.com/tau-agent/tau",
	categories: ["cli-agent"],
};

/** Source-compatibility alias; tau does not claim to be pi. */
export const PI_ATTRIBUTION = TAU_ATTRIBUTION;

/** Field-by-field merge, later wins; `undefined` fields are skipped, `attribution: null` turns it off. */
export function mergeClientIdentity(...sources: (ClientIdentity | undefined)[]): ClientIdentity | undefined {
	let merged: ClientIdentity | undefined;
	for (const source of sources) {
		if (!source) continue;
		merged ??= {};
		if (source.userAgent !== undefined) merged.userAgent = source.userAgent;
		if (source.version !== undefined) merged.version = source.version;
		if (source.attribution !== undefined) merged.attribution = source.attribution;
	}
	return merged;
}

export function userAgentFor(identity: ClientIdentity | undefined): string {
	const mode = identity?.userAgent ?? "detailed";
	if (mode === "short") return "tau";
	if (typeof mode === "object") return mode.custom;
	const version = identity?.version ?? TAU_AI_VERSION;
	return `tau/${version} (${process.platform}; node/${process.versions.node}; ${process.arch})`;
}

function isOpenRouter(provider: string, baseUrl: string | undefined): boolean {
	return provider === "openrouter" || (baseUrl ?? "").includes("openrouter.ai");
}

/** The lowest-precedence request headers: User-Agent and, where the provider defines them, attribution. */
export function clientIdentityHeaders(
	identity: ClientIdentity | undefined,
	target: { provider: string; baseUrl?: string },
): Record<string, string> {
	const headers: Record<string, string> = { "User-Agent": userAgentFor(identity) };
	const attribution = identity?.attribution;
	if (attribution && isOpenRouter(target.provider, target.baseUrl)) {
		headers["HTTP-Referer"] = attribution.url;
		headers["X-OpenRouter-Title"] = attribution.name;
		if (attribution.categories?.length) headers["X-OpenRouter-Categories"] = attribution.categories.join(",");
	}
	return headers;
}
