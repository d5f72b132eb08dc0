import type { OAuthAuth } from "../../types/auth.js";
import { lazyOAuth } from "../auth-helpers.js";

/*
 * The account sign-ins of the built-in providers (docs/providers.md). Each flow's code is loaded on
 * first use, so a run that never signs in or refreshes does not load it.
 */

export function anthropicSubscriptionLogin(): OAuthAuth {
	return lazyOAuth({
		name: "Anthropic (Claude Pro/Max)",
		isSubscription: true,
		loginLabel: "Sign in with a Claude Pro/Max subscription",
		load: () => import("./anthropic-oauth.js"),
	});
}

export function githubCopilotLogin(): OAuthAuth {
	return lazyOAuth({
		name: "GitHub Copilot",
		isSubscription: true,
		loginLabel: "Sign in with GitHub (device code)",
		load: () => import("./github-copilot-oauth.js"),
	});
}

export function openaiCodexLogin(): OAuthAuth {
	return lazyOAuth({
		name: "OpenAI (ChatGPT Plus/Pro)",
		isSubscription: true,
		loginLabel: "Sign in with a ChatGPT Plus/Pro subscription",
		load: () => import("./openai-codex-oauth.js"),
	});
}

/** The plain `openai` provider's sign-in: the ChatGPT account's token is used as the API key. */
export function openaiChatgptLogin(): OAuthAuth {
	return lazyOAuth({
		name: "OpenAI (ChatGPT subscription)",
		isSubscription: true,
		loginLabel: "Sign in with ChatGPT",
		load: () => import("./openai-chatgpt-oauth.js"),
	});
}

export function xaiLogin(): OAuthAuth {
	return lazyOAuth({
		name: "xAI (Grok/X subscription)",
		isSubscription: true,
		loginLabel: "Sign in with SuperGrok or X Premium",
		load: () => import("./xai-oauth.js"),
	});
}

export function kimiCodingLogin(): OAuthAuth {
	return lazyOAuth({
		name: "Kimi Code (subscription)",
		isSubscription: true,
		loginLabel: "Sign in with Kimi Code",
		load: () => import("./kimi-coding-oauth.js"),
	});
}

export function openrouterLogin(): OAuthAuth {
	return lazyOAuth({
		name: "OpenRouter OAuth",
		loginLabel: "Sign in with OpenRouter",
		load: () => import("./openrouter-oauth.js"),
	});
}

export function metaLogin(): OAuthAuth {
	return lazyOAuth({
		name: "Meta (Muse subscription)",
		isSubscription: true,
		loginLabel: "Sign in with Meta",
		load: () => import("./meta-oauth.js"),
	});
}
