import type { AgentMessage, StreamFn } from "@tau/agent";
import {
	type Api,
	builtinApi,
	type KnownApi,
	type Model,
	normalizeContext,
	type RetryCallbacks,
	type RetryPolicy,
	type ThinkingLevel,
	type Usage,
} from "@tau/ai";
import type { SessionMessage } from "../session/messages.js";
import { buildHistoryPrompt, completeSummarization } from "./summarizer.js";

/**
 * Summarizes `currentMessages` (updating `previousSummary` when given) with one request to `model`,
 * sent through `streamFn` or the built-in adapter of the model's API with `apiKey`, `headers` and
 * `env`. The output budget follows the model's window; `_reserveTokens` is accepted for
 * compatibility. Throws the failure of an unusable response (docs/sessions.md).
 */
export async function generateSummaryWithUsage(
	currentMessages: AgentMessage[],
	model: Model<any>,
	_reserveTokens: number | undefined,
	apiKey: string | undefined,
	headers?: Record<string, string>,
	signal?: AbortSignal,
	customInstructions?: string,
	previousSummary?: string,
	thinkingLevel?: ThinkingLevel,
	streamFn?: StreamFn,
	env?: Record<string, string>,
	retry?: RetryPolicy,
	callbacks?: RetryCallbacks,
	sessionId?: string,
): Promise<{ text: string; usage: Usage }> {
	const send: StreamFn =
		streamFn ??
		((target, context, options) => builtinApi(target.api as KnownApi).streamSimple(target, context, options));
	const prompt = buildHistoryPrompt(currentMessages as SessionMessage[], previousSummary, customInstructions);
	return completeSummarization(model as Model<Api>, prompt, "Summarization", {
		complete: async (target, context, options) =>
			(
				await send(target, normalizeContext(context), {
					...options,
					...(apiKey !== undefined ? { apiKey } : {}),
					...(headers ? { headers } : {}),
					...(env ? { env } : {}),
				})
			).result(),
		...(thinkingLevel ? { thinkingLevel } : {}),
		...(sessionId ? { sessionId } : {}),
		...(signal ? { signal } : {}),
		...(retry ? { retry } : {}),
		...(callbacks ? { retryCallbacks: callbacks } : {}),
	});
}

/** `generateSummaryWithUsage` without the usage. */
export async function generateSummary(...args: Parameters<typeof generateSummaryWithUsage>): Promise<string> {
	return (await generateSummaryWithUsage(...args)).text;
}
