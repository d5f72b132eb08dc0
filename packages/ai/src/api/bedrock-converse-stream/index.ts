import {
	BedrockRuntimeServiceException,
	ConverseStreamCommand,
	type ConverseStreamOutput,
} from "@aws-sdk/client-bedrock-runtime";
import type { AssistantMessageEventStream } from "../../stream/assistant-message-event-stream.js";
import { adjustMaxTokensForThinking } from "../../thinking/budgets.js";
import type { BedrockOptions } from "../../types/api-options.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import type { ProviderResponseInfo, SimpleStreamOptions } from "../../types/options.js";
import { clampMaxTokensToContext } from "../../usage/token-estimate.js";
import { runAdapterStream } from "../shared/adapter-stream.js";
import { normalizeProviderError, withCauseDetail } from "../shared/provider-error.js";
import { applyPayloadHook, consumeSdkStream } from "../shared/provider-request.js";
import { requestedThinkingLevel, simpleBaseOptions } from "../shared/simple-options.js";
import { configuredRegion, createBedrockClient, instrumentCommand } from "./client.js";
import { BedrockEventMapper } from "./events.js";
import { hasAdaptiveThinking, isClaude } from "./models.js";
import { buildBedrockInput } from "./payload.js";

/**
 * Readable prefixes for Bedrock's modeled errors; retry and overflow classification match on them
 * (e.g. "Throttling error:", "Service unavailable:").
 */
const ERROR_PREFIXES: Record<string, string> = {
	InternalServerException: "Internal server error",
	ModelStreamErrorException: "Model stream error",
	ValidationException: "Validation error",
	ThrottlingException: "Throttling error",
	ServiceUnavailableException: "Service unavailable",
};

/**
 * `<readable name>: <message> (HTTP <status>)` for Bedrock's modeled errors; a transport failure keeps its
 * code (a response cut short reads only "aborted" otherwise).
 */
function formatBedrockError(error: unknown): string {
	const normalized = normalizeProviderError(error);
	const failure = error as { name?: unknown; code?: unknown; $metadata?: { httpStatusCode?: unknown } } | null;
	let message = withCauseDetail(error, normalized.message);
	if (typeof failure?.code === "string" && !message.includes(failure.code)) message = `${message} (${failure.code})`;
	const name = failure?.name;
	const modeled =
		error instanceof BedrockRuntimeServiceException || (typeof name === "string" && name.endsWith("Exception"));
	if (!modeled || typeof name !== "string") return message;
	const status = failure?.$metadata?.httpStatusCode;
	return `${ERROR_PREFIXES[name] ?? name}: ${message}${typeof status === "number" ? ` (HTTP ${status})` : ""}`;
}

/** Streams one request through Amazon Bedrock's ConverseStream API (AWS event-stream framing). */
export function stream(
	model: Model<Api>,
	context: TranscriptContext,
	options: BedrockOptions = {},
): AssistantMessageEventStream {
	return runAdapterStream(model, options.signal, {
		pendingMessage: "Bedrock stream ended without a stop reason",
		formatError: formatBedrockError,
		async execute(output) {
			const client = createBedrockClient(model, options);
			const input = await applyPayloadHook(
				model,
				options,
				buildBedrockInput(model, context, options, configuredRegion(options)),
			);
			const mapper = new BedrockEventMapper(output);
			await consumeSdkStream<ConverseStreamOutput>(
				model,
				options,
				output,
				async () => {
					const command = new ConverseStreamCommand(input);
					let info: ProviderResponseInfo = { status: 200, headers: {} };
					instrumentCommand(command, model, options, (captured) => {
						info = captured;
					});
					const response = await client.send(command, options.signal ? { abortSignal: options.signal } : {});
					if (!response.stream) throw new Error("Bedrock returned no event stream");
					// Bedrock's stream has no response id; the request id names the exchange instead.
					if (response.$metadata.requestId) output.message.responseId = response.$metadata.requestId;
					return { data: response.stream, response: info };
				},
				(event) => mapper.handle(event),
			);
		},
	});
}

/** Provider-neutral options: Claude budget models get their output limit grown by the thinking budget. */
export function streamSimple(
	model: Model<Api>,
	context: TranscriptContext,
	options: SimpleStreamOptions = {},
): AssistantMessageEventStream {
	const base: BedrockOptions = { ...simpleBaseOptions(model, context, options) };
	if (options.toolChoice !== undefined) base.toolChoice = options.toolChoice;
	const level = requestedThinkingLevel(model, options);
	if (level === "off") return stream(model, context, base);
	if (isClaude(model) && !hasAdaptiveThinking(model)) {
		const adjusted = adjustMaxTokensForThinking(base.maxTokens, model.maxTokens, level, options.thinkingBudgets);
		const maxTokens = clampMaxTokensToContext(model, context, adjusted.maxTokens);
		const budget = Math.min(adjusted.thinkingBudget, Math.max(0, maxTokens - 1024));
		const key = level === "xhigh" || level === "max" ? "high" : level;
		return stream(model, context, {
			...base,
			maxTokens,
			reasoning: level,
			thinkingBudgets: { ...options.thinkingBudgets, [key]: budget },
		});
	}
	return stream(model, context, {
		...base,
		reasoning: level,
		...(options.thinkingBudgets ? { thinkingBudgets: options.thinkingBudgets } : {}),
	});
}
