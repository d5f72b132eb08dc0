import type { OpenAICompletionsCompat, OpenAICompletionsThinkingFormat } from "../../types/compat.js";
import type { Api, Model } from "../../types/model.js";

/** Every compat field with its detected default applied (docs/design/ai-adapters.md#openai-chat-completions). */
export type ResolvedCompletionsCompat = Required<
	Omit<
		OpenAICompletionsCompat,
		"thinkingTokenBudgetField" | "cacheControlFormat" | "vllmPriority" | "chatTemplateArgs" | "vercelGatewayRouting"
	>
> &
	Pick<OpenAICompletionsCompat, "thinkingTokenBudgetField" | "cacheControlFormat" | "vllmPriority">;

type Host =
	| "openai"
	| "openrouter"
	| "nvidia"
	| "cerebras"
	| "xai"
	| "together"
	| "chutes"
	| "deepseek"
	| "zai"
	| "moonshot"
	| "opencode"
	| "cloudflare"
	| "antling";

/** How each known host is recognised: provider ids and base-URL substrings. */
const HOSTS: Record<Host, { providers: string[]; urls: string[] }> = {
	openai: { providers: ["openai"], urls: ["api.openai.com"] },
	openrouter: { providers: ["openrouter"], urls: ["openrouter.ai"] },
	nvidia: { providers: ["nvidia"], urls: ["nvidia.com"] },
	cerebras: { providers: ["cerebras"], urls: ["cerebras.ai"] },
	xai: { providers: ["xai"], urls: ["api.x.ai"] },
	together: { providers: ["together", "togetherai"], urls: ["together.xyz", "together.ai"] },
	chutes: { providers: ["chutes"], urls: ["chutes.ai"] },
	deepseek: { providers: ["deepseek"], urls: ["deepseek.com"] },
	zai: { providers: ["zai", "z.ai"], urls: ["z.ai", "bigmodel.cn"] },
	moonshot: { providers: ["moonshot", "moonshotai", "kimi"], urls: ["moonshot.ai", "moonshot.cn"] },
	opencode: { providers: ["opencode"], urls: ["opencode.ai"] },
	cloudflare: { providers: ["cloudflare", "cloudflare-ai-gateway"], urls: ["gateway.ai.cloudflare.com"] },
	antling: { providers: ["ant-ling", "antling"], urls: ["ant-ling", "antling"] },
};

function detectHosts(model: Model<Api>): Set<Host> {
	const url = (model.baseUrl ?? "").toLowerCase();
	const found = new Set<Host>();
	for (const [host, match] of Object.entries(HOSTS) as [Host, (typeof HOSTS)[Host]][]) {
		if (match.providers.includes(model.provider) || match.urls.some((part) => url.includes(part))) found.add(host);
	}
	return found;
}

function detectThinkingFormat(hosts: Set<Host>): OpenAICompletionsThinkingFormat {
	if (hosts.has("deepseek")) return "deepseek";
	if (hosts.has("zai")) return "zai";
	if (hosts.has("together")) return "together";
	if (hosts.has("antling")) return "ant-ling";
	if (hosts.has("openrouter")) return "openrouter";
	return "openai";
}

/** Detected defaults overridden field by field by `model.compat`. */
export function getCompletionsCompat(model: Model<Api>): ResolvedCompletionsCompat {
	const hosts = detectHosts(model);
	const any = (...list: Host[]) => list.some((host) => hosts.has(host));
	const detected: ResolvedCompletionsCompat = {
		supportsStore: !any(
			"nvidia",
			"cerebras",
			"xai",
			"together",
			"chutes",
			"deepseek",
			"zai",
			"moonshot",
			"opencode",
			"cloudflare",
			"antling",
		),
		supportsDeveloperRole: any("openai"),
		supportsReasoningEffort: !any("xai", "zai", "moonshot", "together", "cloudflare", "nvidia", "antling"),
		supportsUsageInStreaming: true,
		supportsFinishReason: true,
		maxTokensField: any("chutes", "deepseek", "moonshot", "cloudflare", "together", "nvidia", "antling", "zai")
			? "max_tokens"
			: "max_completion_tokens",
		requiresToolResultName: false,
		requiresAssistantAfterToolResult: false,
		requiresNonNullAssistantContent: false,
		requiresToolsWithToolHistory: false,
		requiresThinkingAsText: false,
		requiresReasoningContentOnAssistantMessages: any("deepseek"),
		thinkingFormat: detectThinkingFormat(hosts),
		chatTemplateKwargs: {},
		openRouterRouting: {},
		supportsThinkingTokenBudget: false,
		supportsStrictMode: false,
		supportsOpenAIGrammarTools: false,
		supportsMidConvoSystemMessages: false,
		supportsMidConvoToolAdditions: false,
		zaiToolStream: false,
		sendSessionAffinityHeaders: any("openrouter"),
		sessionAffinityFormat: any("openrouter") ? "openrouter" : "openai",
		supportsLongCacheRetention: !any("together", "cloudflare", "nvidia", "antling"),
		promptCacheKeyMode: "auto",
	};
	if (model.provider === "openrouter" && model.id.startsWith("anthropic/")) detected.cacheControlFormat = "anthropic";
	const overrides = (model.compat ?? {}) as OpenAICompletionsCompat;
	const resolved: ResolvedCompletionsCompat = { ...detected };
	for (const [key, value] of Object.entries(overrides)) {
		if (value !== undefined) (resolved as unknown as Record<string, unknown>)[key] = value;
	}
	return resolved;
}
