/**
 * A Claude Pro/Max sign-in's access token (docs/providers.md) is used where an API key would be, but
 * Anthropic accepts it only as a bearer token on requests that present themselves as Claude Code:
 * its identity headers, its beta flags and its identity line first in the system prompt.
 */

const SUBSCRIPTION_TOKEN_MARKER = "sk-ant-oat";
const CLAUDE_CODE_VERSION = "2.1.322";
export const SUBSCRIPTION_BETAS = ["claude-code-20250219", "oauth-2025-04-20"] as const;
export const CLAUDE_CODE_IDENTITY = "You are Claude Code, Anthropic's official CLI for Claude.";

export function isSubscriptionToken(apiKey: string | undefined): apiKey is string {
	return apiKey?.includes(SUBSCRIPTION_TOKEN_MARKER) === true;
}

export function subscriptionHeaders(token: string): Record<string, string> {
	return { authorization: `Bearer ${token}`, "user-agent": `claude-cli/${CLAUDE_CODE_VERSION}`, "x-app": "cli" };
}
