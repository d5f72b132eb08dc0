import type {
	ChatCompletion,
	ChatCompletionCreateParamsNonStreaming,
} from "openai/resources/chat/completions/completions.js";
import { getIdentityHeaders } from "../../identity/client-identity.js";
import { retryProviderRequest } from "../../retry/provider-request-retry.js";
import type { ImageContent, TextContent } from "../../types/content.js";
import type { AssistantImages, ImagesContext, ImagesOptions } from "../../types/media.js";
import type { ImageModel } from "../../types/model.js";
import { type Usage, zeroUsage } from "../../types/usage.js";
import { calculateCost } from "../../usage/cost.js";
import { mergeHeaders } from "../../utils/headers.js";
import { sanitizeSurrogates } from "../../utils/sanitize-surrogates.js";
import { createOpenAIClient } from "../shared/openai-client.js";
import { formatProviderError, normalizeProviderError } from "../shared/provider-error.js";
import { responseInfo } from "../shared/request-headers.js";

/**
 * Image generation over OpenRouter's Chat Completions endpoint (docs/ai.md "Image generation"): one
 * non-streaming request asking for the image modality; images come back as `data:` URLs.
 */

/** OpenRouter's additions to a chat completion message and its usage. */
interface ImageCompletion extends ChatCompletion {
	choices: (ChatCompletion.Choice & {
		message: ChatCompletion.Choice["message"] & { images?: { image_url?: string | { url?: string } }[] };
	})[];
	usage?: ChatCompletion["usage"] & {
		prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
	};
}

function buildPayload(model: ImageModel, context: ImagesContext): ChatCompletionCreateParamsNonStreaming {
	const content = context.input.map((item) =>
		item.type === "text"
			? { type: "text" as const, text: sanitizeSurrogates(item.text) }
			: { type: "image_url" as const, image_url: { url: `data:${item.mimeType};base64,${item.data}` } },
	);
	const modalities = model.output.includes("text") ? ["image", "text"] : ["image"];
	return {
		model: model.id,
		messages: [{ role: "user", content }],
		stream: false,
		modalities,
	} as ChatCompletionCreateParamsNonStreaming;
}

/** Prompt tokens include cache reads and writes; `input` is what remains. */
function parseUsage(raw: NonNullable<ImageCompletion["usage"]>, model: ImageModel): Usage {
	const cached = raw.prompt_tokens_details?.cached_tokens ?? 0;
	const cacheWrite = raw.prompt_tokens_details?.cache_write_tokens ?? 0;
	const cacheRead = cacheWrite > 0 ? Math.max(0, cached - cacheWrite) : cached;
	const input = Math.max(0, (raw.prompt_tokens ?? 0) - cacheRead - cacheWrite);
	const output = raw.completion_tokens ?? 0;
	const usage: Usage = { ...zeroUsage(), input, output, cacheRead, cacheWrite };
	usage.totalTokens = input + output + cacheRead + cacheWrite;
	calculateCost(model, usage);
	return usage;
}

function parseOutput(completion: ImageCompletion): (TextContent | ImageContent)[] {
	const message = completion.choices[0]?.message;
	if (!message) return [];
	const output: (TextContent | ImageContent)[] = [];
	if (typeof message.content === "string" && message.content.length > 0) {
		output.push({ type: "text", text: message.content });
	}
	for (const image of message.images ?? []) {
		const url = typeof image.image_url === "string" ? image.image_url : image.image_url?.url;
		const match = url ? /^data:([^;]+);base64,(.+)$/.exec(url) : null;
		if (match) output.push({ type: "image", mimeType: match[1]!, data: match[2]! });
	}
	return output;
}

/** Generates images for `context`; never rejects: a failure is a result with `stopReason: "error"`. */
export async function generateImages(
	model: ImageModel,
	context: ImagesContext,
	options: ImagesOptions = {},
): Promise<AssistantImages> {
	const result: AssistantImages = {
		api: model.api,
		provider: model.provider,
		model: model.id,
		output: [],
		stopReason: "stop",
		timestamp: Date.now(),
	};
	try {
		if (!options.apiKey) throw new Error(`No API key for provider: ${model.provider}`);
		const headers = mergeHeaders(getIdentityHeaders(model, options.identity), model.headers, options.headers);
		const client = createOpenAIClient(model, options, headers);
		const built = buildPayload(model, context);
		const payload = ((await options.onPayload?.(built, model)) ?? built) as ChatCompletionCreateParamsNonStreaming;
		const { data, response } = await retryProviderRequest(
			() => client.chat.completions.create(payload, { signal: options.signal }).withResponse(),
			{ maxRetries: options.maxRetries ?? 0, maxRetryDelayMs: options.maxRetryDelayMs, signal: options.signal },
		);
		await options.onResponse?.(responseInfo(response), model);
		const completion = data as ImageCompletion;
		result.responseId = completion.id;
		if (completion.usage) result.usage = parseUsage(completion.usage, model);
		result.output = parseOutput(completion);
	} catch (error) {
		result.stopReason = options.signal?.aborted ? "aborted" : "error";
		result.errorMessage = formatProviderError(normalizeProviderError(error));
	}
	return result;
}
