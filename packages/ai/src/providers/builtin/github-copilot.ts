import { envApiKeyAuth } from "../../auth/auth-helpers.js";
import { githubCopilotLogin } from "../../auth/oauth/subscription-logins.js";
import type { Credential } from "../../types/auth.js";
import type { TranscriptContext } from "../../types/context.js";
import type { StreamOptions } from "../../types/options.js";
import type { Provider, ProviderStreams } from "../../types/provider.js";
import { apiByModel } from "../api-registry.js";
import { catalogProvider } from "../catalog/catalog-provider.js";

/**
 * Copilot's per-request headers: who started the turn (the user, or the agent following up on tool
 * results), the intent, and whether images are attached. The static ones (editor and integration ids)
 * come with each catalog model's `headers`.
 */
function copilotHeaders(context: TranscriptContext): Record<string, string> {
	const last = context.messages.at(-1);
	const images = context.messages.some(
		(message) =>
			(message.role === "user" || message.role === "toolResult") &&
			Array.isArray(message.content) &&
			message.content.some((block) => block.type === "image"),
	);
	return {
		"X-Initiator": last && last.role !== "user" ? "agent" : "user",
		"Openai-Intent": "conversation-edits",
		...(images ? { "Copilot-Vision-Request": "true" } : {}),
	};
}

/** Each model's API with Copilot's headers under the caller's own (a caller's header wins). */
function copilotStreams(): ProviderStreams {
	const inner = apiByModel();
	const withHeaders = <T extends StreamOptions>(context: TranscriptContext, options: T | undefined): T =>
		({ ...options, headers: { ...copilotHeaders(context), ...options?.headers } }) as T;
	return {
		stream: (model, context, options) => inner.stream(model, context, withHeaders(context, options)),
		streamSimple: (model, context, options) => inner.streamSimple(model, context, withHeaders(context, options)),
	};
}

/**
 * The models a signed-in seat can use, by the `availableModelIds` its sign-in stored (Pi's rule,
 * docs/providers.md); with no such list (a `COPILOT_GITHUB_TOKEN`, or a credential saved before the
 * list existed), every model.
 */
function seatModels<T extends { id: string }>(models: readonly T[], credential: Credential | undefined): readonly T[] {
	if (credential?.type !== "oauth") return models;
	const ids = credential.availableModelIds;
	if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) return models;
	const available = new Set<string>(ids);
	return models.filter((model) => available.has(model.id));
}

/** The GitHub Copilot provider over its shipped catalog, authorized by `COPILOT_GITHUB_TOKEN` or a GitHub sign-in. */
export function githubCopilotProvider(): Provider {
	return catalogProvider({
		id: "github-copilot",
		name: "GitHub Copilot",
		baseUrl: "https://api.individual.githubcopilot.com",
		auth: { apiKey: envApiKeyAuth("GitHub Copilot token", ["COPILOT_GITHUB_TOKEN"]), oauth: githubCopilotLogin() },
		api: copilotStreams(),
		filterModels: seatModels,
	});
}
