import type { GenerateContentResponse, GoogleGenAI } from "@google/genai";
import { getIdentityHeaders } from "../../identity/client-identity.js";
import type { AssistantMessageEventStream } from "../../stream/assistant-message-event-stream.js";
import type { GoogleOptions } from "../../types/api-options.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import type { SimpleStreamOptions } from "../../types/options.js";
import { mergeHeaders } from "../../utils/headers.js";
import { runAdapterStream } from "../shared/adapter-stream.js";
import { formatProviderError, normalizeProviderError } from "../shared/provider-error.js";
import { applyPayloadHook, consumeSdkStream } from "../shared/provider-request.js";
import { assertDirectAuth, requestedThinkingLevel, simpleBaseOptions } from "../shared/simple-options.js";
import { GoogleEventMapper } from "./events.js";
import { buildGoogleParams } from "./payload.js";
import { apiThinkingLevel, googleLevel, googleThinkingBudget, usesThinkingLevel } from "./thinking.js";

/** Headers that authenticate a Google request by themselves (then no API key is needed). */
export const GOOGLE_AUTH_HEADERS = ["x-goog-api-key", "authorization"] as const;

/** Identity < model.headers < options.headers; a `null` (suppressed) header is simply not sent. */
export function googleHeaders(model: Model<Api>, options: GoogleOptions): Record<string, string> {
	const merged = mergeHeaders(getIdentityHeaders(model, options.identity), model.headers, options.headers);
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(merged)) if (value !== null) headers[name] = value;
	return headers;
}

/**
 * One Gemini request (the generative-language API and Vertex share the wire format): the client comes
 * from the adapter; the request runs with tau's retry, abort and a fetch that captures the HTTP response
 * for `onResponse`.
 */
export function streamGoogleRequest(
	model: Model<Api>,
	context: TranscriptContext,
	options: GoogleOptions,
	createClient: () => GoogleGenAI,
): AssistantMessageEventStream {
	return runAdapterStream(model, options.signal, {
		pendingMessage: "Google stream ended without a finish reason",
		formatError: (error) => formatProviderError(normalizeProviderError(error)),
		async execute(output) {
			const client = createClient();
			const params = await applyPayloadHook(model, options, buildGoogleParams(model, context, options));
			const mapper = new GoogleEventMapper(output);
			await consumeSdkStream<GenerateContentResponse>(
				model,
				options,
				output,
				async () => {
					const baseFetch = options.fetch ?? globalThis.fetch;
					let response: Response | undefined;
					const capture: typeof fetch = async (input, init) => {
						response = await baseFetch(input, init);
						return response;
					};
					const data = await client.models.generateContentStream({
						...params,
						config: {
							...params.config,
							...(options.signal ? { abortSignal: options.signal } : {}),
							httpOptions: { ...params.config?.httpOptions, fetch: capture },
						},
					});
					return { data, response: response ?? { status: 200, headers: {} } };
				},
				(chunk) => mapper.handle(chunk),
			);
			mapper.finish();
		},
	});
}

/** Provider-neutral options: thinking becomes a Gemini level (Gemini 3+) or a token budget. */
function googleSimpleOptions(
	model: Model<Api>,
	context: TranscriptContext,
	options: SimpleStreamOptions,
): GoogleOptions {
	const base: GoogleOptions = { ...simpleBaseOptions(model, context, options) };
	if (options.toolChoice !== undefined) base.toolChoice = options.toolChoice;
	const level = requestedThinkingLevel(model, options);
	if (level === "off") return { ...base, thinking: { enabled: false } };
	const resolved = googleLevel(model, level);
	if (usesThinkingLevel(model)) return { ...base, thinking: { enabled: true, level: apiThinkingLevel(resolved) } };
	return {
		...base,
		thinking: { enabled: true, budgetTokens: googleThinkingBudget(model, resolved, options.thinkingBudgets) },
	};
}

/**
 * An adapter's `stream`/`streamSimple` over its client factory (the Gemini API and Vertex differ only in
 * the client). With `keyRequired`, a direct `streamSimple` without a key throws as every adapter's does.
 */
export function googleAdapter<TOptions extends GoogleOptions>(
	createClient: (model: Model<Api>, options: TOptions) => GoogleGenAI,
	keyRequired: boolean,
) {
	const stream = (model: Model<Api>, context: TranscriptContext, options: TOptions = {} as TOptions) =>
		streamGoogleRequest(model, context, options, () => createClient(model, options));
	const streamSimple = (model: Model<Api>, context: TranscriptContext, options: SimpleStreamOptions = {}) => {
		if (keyRequired) assertDirectAuth(model, options, GOOGLE_AUTH_HEADERS);
		return stream(model, context, googleSimpleOptions(model, context, options) as TOptions);
	};
	return { stream, streamSimple };
}
