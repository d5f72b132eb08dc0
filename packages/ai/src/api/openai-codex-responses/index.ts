import { getIdentityHeaders } from "../../identity/client-identity.js";
import type { AssistantMessageEventStream } from "../../stream/assistant-message-event-stream.js";
import { clampThinkingLevel } from "../../thinking/levels.js";
import type { OpenAICodexResponsesOptions, OpenAIResponsesOptions } from "../../types/api-options.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import type { SimpleStreamOptions } from "../../types/options.js";
import { mergeHeaders } from "../../utils/headers.js";
import { type ResponsesBackend, streamResponses } from "../openai-responses/run.js";
import { cachingSessionId } from "../shared/cache-retention.js";
import { createOpenAIClient } from "../shared/openai-client.js";
import { headerValue } from "../shared/request-headers.js";
import { simpleBaseOptions } from "../shared/simple-options.js";
import { codexAccountId, describeCodexError } from "./account.js";

/** Where the ChatGPT backend serves Responses: `<baseUrl>/codex/responses`. */
function codexBaseUrl(baseUrl: string): string {
	const trimmed = (baseUrl.trim() || "https://chatgpt.com/backend-api").replace(/\/+$/, "");
	if (trimmed.endsWith("/codex/responses")) return trimmed.slice(0, -"/responses".length);
	return trimmed.endsWith("/codex") ? trimmed : `${trimmed}/codex`;
}

/**
 * The account's access token is the bearer key; the account id comes from a `chatgpt-account-id` header
 * the auth supplies, else from the token's claims. Codex expects an `originator` on every request.
 */
function codexHeaders(model: Model<Api>, options: CodexRequestOptions): Record<string, string | null> {
	const sessionId = cachingSessionId(options);
	const merged = mergeHeaders(
		{ originator: "tau" },
		getIdentityHeaders(model, options.identity),
		model.headers,
		options.headers,
	);
	const accountId = headerValue(merged, "chatgpt-account-id") ?? codexAccountId(options.apiKey ?? "");
	return mergeHeaders(merged, {
		"chatgpt-account-id": accountId,
		"OpenAI-Beta": "responses=experimental",
		...(sessionId ? { "session-id": sessionId, "x-client-request-id": sessionId } : {}),
	});
}

/**
 * The options the shared Responses request takes: "none" effort is simply no effort (thinking off), and
 * Codex's extra summary values ("on", "off") travel to the wire unchanged.
 */
type CodexRequestOptions = OpenAIResponsesOptions & Pick<OpenAICodexResponsesOptions, "textVerbosity" | "toolChoice">;

const codexBackend: ResponsesBackend<CodexRequestOptions> = {
	errorPrefix: "OpenAI Codex API error",
	authHeaders: [],
	headers: codexHeaders,
	payload: (payload, _model, options) => ({
		...payload,
		text: { verbosity: options.textVerbosity ?? "low" },
		include: ["reasoning.encrypted_content"],
		tool_choice: options.toolChoice ?? "auto",
		parallel_tool_calls: true,
	}),
	client: (model, options, headers) =>
		createOpenAIClient({ ...model, baseUrl: codexBaseUrl(model.baseUrl) }, options, headers),
	describeError: describeCodexError,
};

/** Streams one request through the ChatGPT-subscription (Codex) Responses backend. */
export function stream(
	model: Model<Api>,
	context: TranscriptContext,
	options: OpenAICodexResponsesOptions = {},
): AssistantMessageEventStream {
	const { reasoningEffort, ...rest } = options;
	const request = (
		reasoningEffort && reasoningEffort !== "none" ? { ...rest, reasoningEffort } : rest
	) as CodexRequestOptions;
	return streamResponses(model, context, request, codexBackend);
}

/** Provider-neutral options: the clamped level as `reasoningEffort` unless thinking is off. */
export function streamSimple(
	model: Model<Api>,
	context: TranscriptContext,
	options: SimpleStreamOptions = {},
): AssistantMessageEventStream {
	const base: OpenAICodexResponsesOptions = { ...simpleBaseOptions(model, context, options) };
	if (options.toolChoice !== undefined) base.toolChoice = options.toolChoice;
	const level = options.reasoning ? clampThinkingLevel(model, options.reasoning) : "off";
	if (level !== "off") base.reasoningEffort = level;
	return stream(model, context, base);
}
