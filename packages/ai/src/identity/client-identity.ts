import type { ClientAttribution, ClientIdentity, ClientIdentityTarget } from "../types/identity.js";
import { TAU_AI_VERSION } from "../version.js";

/** tau's own attribution: the name, URL and categories sent where providers credit the calling app. */
export const TAU_ATTRIBUTION: ClientAttribution = {
	name: "tau",
	url: "https://github.com/tau-agent/tau",
	categories: ["cli-agent"],
};

/** Source-compatibility alias; tau does not claim to be pi. */
export const PI_ATTRIBUTION = TAU_ATTRIBUTION;

const NVIDIA_NIM_HOST = "integrate.api.nvidia.com";
const OPENCODE_HOST = "opencode.ai";

/** Field-by-field merge, later wins; `undefined` fields are skipped, `attribution: null` turns it off. */
export function mergeClientIdentity(...sources: (ClientIdentity | undefined)[]): ClientIdentity | undefined {
	let merged: ClientIdentity | undefined;
	for (const source of sources) {
		if (!source) continue;
		merged ??= {};
		if (source.userAgent !== undefined) merged.userAgent = source.userAgent;
		if (source.attribution !== undefined) merged.attribution = source.attribution;
		if (source.version !== undefined) merged.version = source.version;
	}
	return merged;
}

/** The version in the detailed `User-Agent`: the identity's own, else the @tau/ai version. */
export function getClientVersion(identity?: ClientIdentity): string {
	return identity?.version ?? TAU_AI_VERSION;
}

function runtimeDescription(): string | undefined {
	if (typeof process === "undefined") return undefined;
	const versions = process.versions as NodeJS.ProcessVersions & { bun?: string };
	if (versions?.bun) return `bun/${versions.bun}`;
	if (versions?.node) return `node/${process.version}`;
	return undefined;
}

/** `tau/<version> (<platform>; <runtime>; <arch>)`, `tau` when short, or the custom value. */
export function formatUserAgent(identity?: ClientIdentity): string {
	const mode = identity?.userAgent ?? "detailed";
	if (typeof mode === "object") return mode.custom;
	if (mode === "short") return "tau";
	const product = `tau/${getClientVersion(identity)}`;
	const runtime = runtimeDescription();
	return runtime ? `${product} (${process.platform}; ${runtime}; ${process.arch})` : `${product} (browser)`;
}

/** Host names by base URL: the identity headers of every request need one, and parsing a URL is not free. */
const hostnames = new Map<string, string | undefined>();

function hostIs(baseUrl: string, host: string): boolean {
	if (!hostnames.has(baseUrl)) {
		let hostname: string | undefined;
		try {
			hostname = new URL(baseUrl).hostname;
		} catch {
			hostname = undefined;
		}
		hostnames.set(baseUrl, hostname);
	}
	return hostnames.get(baseUrl) === host;
}

const isOpenRouter = (target: ClientIdentityTarget) =>
	target.provider === "openrouter" || target.baseUrl.includes("openrouter.ai");
const isNvidiaNim = (target: ClientIdentityTarget) =>
	target.provider === "nvidia" || hostIs(target.baseUrl, NVIDIA_NIM_HOST);
const isOpenCode = (target: ClientIdentityTarget) =>
	target.provider === "opencode" || target.provider === "opencode-go" || hostIs(target.baseUrl, OPENCODE_HOST);

/** The attribution headers each provider defines for the identity's app; empty when attribution is off. */
export function getAttributionHeaders(target: ClientIdentityTarget, identity?: ClientIdentity): Record<string, string> {
	const attribution = identity?.attribution;
	if (!attribution) return {};
	const { name, url, categories } = attribution;
	if (isOpenRouter(target)) {
		const headers: Record<string, string> = { "HTTP-Referer": url, "X-OpenRouter-Title": name };
		if (categories?.length) headers["X-OpenRouter-Categories"] = categories.join(",");
		return headers;
	}
	// NVIDIA reports the origin with a capital first letter.
	if (isNvidiaNim(target)) return { "X-BILLING-INVOKE-ORIGIN": name.charAt(0).toUpperCase() + name.slice(1) };
	if (isOpenCode(target)) return { "x-opencode-client": name };
	return {};
}

/** OpenCode routes a conversation by this header; undefined without a session or for other targets. */
export function getOpenCodeSessionHeaders(
	target: ClientIdentityTarget,
	sessionId: string | undefined,
): Record<string, string> | undefined {
	return sessionId && isOpenCode(target) ? { "x-opencode-session": sessionId } : undefined;
}

/** The lowest-precedence request headers: User-Agent and, where the provider defines them, attribution. */
export function getIdentityHeaders(target: ClientIdentityTarget, identity?: ClientIdentity): Record<string, string> {
	return { "User-Agent": formatUserAgent(identity), ...getAttributionHeaders(target, identity) };
}
