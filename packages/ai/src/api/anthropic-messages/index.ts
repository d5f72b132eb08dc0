import type {
	MessageCreateParamsStreaming,
	RawMessageStreamEvent,
} from "@anthropic-ai/sdk/resources/messages/messages.js";
import type { AssistantMessageEventStream } from "../../stream/assistant-message-event-stream.js";
import { resolveTranscript } from "../../system-messages/replay.js";
import { adjustMaxTokensForThinking } from "../../thinking/budgets.js";
import type { AnthropicOptions } from "../../types/api-options.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import type { SimpleStreamOptions } from "../../types/options.js";
import type { ThinkingLevel } from "../../types/thinking.js";
import { clampMaxTokensToContext } from "../../usage/token-estimate.js";
import { runAdapterStream } from "../shared/adapter-stream.js";
import { formatProviderError, normalizeProviderError } from "../shared/provider-error.js";
import { applyPayloadHook, consumeProviderStream } from "../shared/provider-request.js";
import {
	assertDirectAuth,
	hasRequestAuth,
	missingApiKeyMessage,
	requestedThinkingLevel,
	simpleBaseOptions,
} from "../shared/simple-options.js";
import {
	ANTHROPIC_AUTH_HEADERS,
	type AnthropicMessagesClient,
	anthropicBetaHeader,
	anthropicHeaders,
	createAnthropicClient,
} from "./client.js";
import { AnthropicEventMapper } from "./events.js";
import { buildAnthropicPayload, getAnthropicCompat } from "./payload.js";
import { decodeAnthropicSse } from "./sse-events.js";

/** Streams one request through the Anthropic Messages API (docs/design/ai-adapters.md#anthropic-messages). */
export function stream(
	model: Model<Api>,
	context: TranscriptContext,
	options: AnthropicOptions = {},
): AssistantMessageEventStream {
	return runAdapterStream(model, options.signal, {
		pendingMessage: "Anthropic stream ended without a stop reason",
		formatError: (error) => formatProviderError(normalizeProviderError(error)),
		async execute(output) {
			const compat = getAnthropicCompat(model);
			const transcript = resolveTranscript(context, compat.supportsMidConvoSystemMessages);
			const prebuilt = options.client as AnthropicMessagesClient | undefined;
			if (!prebuilt && !hasRequestAuth(model, options, ANTHROPIC_AUTH_HEADERS)) {
				throw new Error(missingApiKeyMessage(model));
			}
			const headers = anthropicHeaders(model, options, compat);
			const { params, betas, responseToolName } = buildAnthropicPayload(model, transcript, options, compat);
			const payload = await applyPayloadHook(model, options, params);
			const body: MessageCreateParamsStreaming = { ...payload, stream: true };
			const client = prebuilt ?? createAnthropicClient(model, options, headers);
			const betaHeaders = anthropicBetaHeader(headers, betas);
			const mapper = new AnthropicEventMapper(model, output, responseToolName);
			await consumeProviderStream<RawMessageStreamEvent>(
				model,
				options,
				output,
				(signal) => client.messages.create(body, { signal, headers: betaHeaders }).asResponse(),
				decodeAnthropicSse,
				(event) => mapper.handle(event),
			);
			if (options.signal?.aborted) return;
			mapper.assertComplete();
		},
	});
}

function adaptiveEffort(model: Model<Api>, level: ThinkingLevel): NonNullable<AnthropicOptions["effort"]> {
	const mapped = model.thinkingLevelMap?.[level];
	if (typeof mapped === "string") return mapped as NonNullable<AnthropicOptions["effort"]>;
	if (level === "minimal" || level === "low") return "low";
	return level === "medium" ? "medium" : "high";
}

/** Provider-neutral options mapped onto Anthropic thinking (adaptive effort or token budget). */
export function streamSimple(
	model: Model<Api>,
	context: TranscriptContext,
	options: SimpleStreamOptions = {},
): AssistantMessageEventStream {
	assertDirectAuth(model, options, ANTHROPIC_AUTH_HEADERS);
	const base: AnthropicOptions = { ...simpleBaseOptions(model, context, options) };
	if (options.toolChoice !== undefined) base.toolChoice = options.toolChoice;
	const level = requestedThinkingLevel(model, options);
	if (level === "off") return stream(model, context, { ...base, thinkingEnabled: false });
	if (getAnthropicCompat(model).forceAdaptiveThinking) {
		return stream(model, context, { ...base, thinkingEnabled: true, effort: adaptiveEffort(model, level) });
	}
	const adjusted = adjustMaxTokensForThinking(base.maxTokens, model.maxTokens, level, options.thinkingBudgets);
	const maxTokens = clampMaxTokensToContext(model, context, adjusted.maxTokens);
	const thinkingBudgetTokens = Math.min(adjusted.thinkingBudget, Math.max(0, maxTokens - 1024));
	return stream(model, context, { ...base, maxTokens, thinkingEnabled: true, thinkingBudgetTokens });
}
