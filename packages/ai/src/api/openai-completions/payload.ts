import { resolveTranscriptTools } from "../../system-messages/tool-declarations.js";
import { MIN_ANSWER_TOKENS, thinkingBudgetFor } from "../../thinking/budgets.js";
import type { OpenAICompletionsOptions } from "../../types/api-options.js";
import type { ChatTemplateKwarg } from "../../types/compat.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import type { ThinkingLevel } from "../../types/thinking.js";
import type { Tool } from "../../types/tools.js";
import { cachingSessionId, clampCodePoints, resolveCacheRetention } from "../shared/cache-retention.js";
import { resolveToolSchema } from "../shared/tool-schema.js";
import type { ResolvedCompletionsCompat } from "./compat.js";
import { type ChatMessage, convertCompletionsMessages, convertCompletionsTool } from "./messages.js";

export type CompletionsPayload = Record<string, unknown> & { model: string; messages: ChatMessage[]; stream: true };

/** The reasoning fields of `thinkingFormat` for the requested effort (undefined = off). */
function applyReasoning(
	payload: CompletionsPayload,
	model: Model<Api>,
	options: OpenAICompletionsOptions,
	compat: ResolvedCompletionsCompat,
): void {
	if (!model.reasoning) return;
	const effort = options.reasoningEffort;
	const map = model.thinkingLevelMap ?? {};
	const off = map.off;
	const mapped = effort ? (map[effort] ?? effort) : undefined;
	const withEffort = () => {
		if (mapped !== undefined && compat.supportsReasoningEffort) payload.reasoning_effort = mapped;
	};
	switch (compat.thinkingFormat) {
		case "openai":
			if (effort) withEffort();
			else if (typeof off === "string") payload.reasoning_effort = off;
			break;
		case "openrouter":
			if (effort) payload.reasoning = { effort: mapped };
			else if (off !== null) payload.reasoning = { effort: off ?? "none" };
			break;
		case "deepseek":
			if (effort) {
				payload.thinking = { type: "enabled" };
				withEffort();
			} else if (off !== null) payload.thinking = { type: "disabled" };
			break;
		case "zai":
			payload.thinking = effort ? { type: "enabled", clear_thinking: false } : { type: "disabled" };
			if (effort && typeof mapped === "string") withEffort();
			break;
		case "qwen":
			payload.enable_thinking = Boolean(effort);
			if (effort) withEffort();
			break;
		case "qwen-chat-template":
			payload.chat_template_kwargs = { enable_thinking: Boolean(effort), preserve_thinking: true };
			break;
		case "chat-template":
			payload.chat_template_kwargs = chatTemplateKwargs(compat.chatTemplateKwargs, effort, mapped, off, () =>
				effort ? clampedBudget(payload, model, options, compat, effort) : 0,
			);
			break;
		case "together":
			payload.reasoning = { enabled: Boolean(effort) };
			if (effort) withEffort();
			break;
		case "string-thinking":
			if (effort) payload.thinking = mapped;
			else if (off !== null) payload.thinking = off ?? "none";
			break;
		case "ant-ling":
			if (effort) withEffort();
			break;
	}
	const budgetField =
		compat.thinkingTokenBudgetField ?? (compat.supportsThinkingTokenBudget ? "thinking_token_budget" : undefined);
	if (effort && budgetField) {
		const budget = clampedBudget(payload, model, options, compat, effort);
		if (budget > 0) payload[budgetField] = budget;
	}
}

function clampedBudget(
	payload: CompletionsPayload,
	model: Model<Api>,
	options: OpenAICompletionsOptions,
	compat: ResolvedCompletionsCompat,
	level: ThinkingLevel,
): number {
	const sent = payload[compat.maxTokensField];
	const ceiling = typeof sent === "number" ? sent : model.maxTokens;
	return Math.min(thinkingBudgetFor(level, options.thinkingBudgets), Math.max(0, ceiling - MIN_ANSWER_TOKENS));
}

function chatTemplateKwargs(
	template: Record<string, ChatTemplateKwarg>,
	effort: ThinkingLevel | undefined,
	mapped: string | null | undefined,
	off: string | null | undefined,
	budget: () => number,
): Record<string, unknown> {
	const kwargs: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(template)) {
		if (value === null || typeof value !== "object") {
			kwargs[name] = value;
			continue;
		}
		if (!effort && value.omitWhenOff) continue;
		if (value.$var === "thinking.enabled") kwargs[name] = Boolean(effort);
		else if (value.$var === "thinking.effort") kwargs[name] = effort ? mapped : off;
		else kwargs[name] = budget();
	}
	return kwargs;
}

/** Places Anthropic-style `cache_control` markers for hosts that relay them (OpenRouter `anthropic/*`). */
function applyAnthropicCacheControl(payload: CompletionsPayload, long: boolean): void {
	const control = long ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
	const mark = (message: ChatMessage | undefined) => {
		if (!message) return;
		if (typeof message.content === "string" && message.content.length > 0) {
			message.content = [{ type: "text", text: message.content, cache_control: control }];
			return;
		}
		if (!Array.isArray(message.content)) return;
		const texts = message.content.filter((part: { type?: string }) => part.type === "text");
		const last = texts.at(-1) as Record<string, unknown> | undefined;
		if (last) last.cache_control = control;
	};
	mark(payload.messages.find((message) => message.role === "system" || message.role === "developer"));
	const tools = payload.tools as Record<string, unknown>[] | undefined;
	const lastTool = tools?.at(-1);
	if (lastTool) lastTool.cache_control = control;
	const conversational = payload.messages.filter(
		(m) => m.role === "user" || m.role === "assistant" || m.role === "tool",
	);
	mark(conversational.findLast((message) => typeof message.content === "string" || Array.isArray(message.content)));
}

function useCacheKey(model: Model<Api>, compat: ResolvedCompletionsCompat, long: boolean): boolean {
	if (compat.promptCacheKeyMode === "enabled") return true;
	if (compat.promptCacheKeyMode !== "auto") return false;
	return (model.baseUrl ?? "").includes("api.openai.com") || (long && compat.supportsLongCacheRetention);
}

/** The Chat Completions request body (docs/design/ai-adapters.md#openai-chat-completions), before `onPayload`. */
export function buildCompletionsPayload(
	model: Model<Api>,
	transcript: TranscriptContext,
	options: OpenAICompletionsOptions,
	compat: ResolvedCompletionsCompat,
): CompletionsPayload {
	const support = compat.supportsMidConvoSystemMessages && compat.supportsMidConvoToolAdditions ? "additions" : "none";
	const { requestTools, foldedSystemMessages } = resolveTranscriptTools(transcript.messages, support);
	const convertTool = (tool: Tool) => convertCompletionsTool(tool, resolveToolSchema(tool, compat.supportsStrictMode));
	const messages = convertCompletionsMessages(transcript.messages, model, {
		compat,
		inPlaceToolsFrom: support === "additions" ? foldedSystemMessages : undefined,
		convertTool,
	});
	const payload: CompletionsPayload = { model: model.id, messages, stream: true };
	if (compat.supportsUsageInStreaming) payload.stream_options = { include_usage: true };
	if (compat.supportsStore) payload.store = false;
	if (options.maxTokens !== undefined) payload[compat.maxTokensField] = options.maxTokens;
	if (options.temperature !== undefined) payload.temperature = options.temperature;

	const tools = requestTools.map(convertTool);
	if (tools.length > 0) payload.tools = tools;
	else if (compat.requiresToolsWithToolHistory && hasToolHistory(transcript)) payload.tools = [];
	if (options.toolChoice !== undefined) payload.tool_choice = options.toolChoice;

	const retention = resolveCacheRetention(options);
	const long = retention === "long" && compat.supportsLongCacheRetention;
	const sessionId = cachingSessionId(options);
	if (sessionId && useCacheKey(model, compat, retention === "long")) {
		payload.prompt_cache_key = clampCodePoints(sessionId, 64);
	}
	if (long) payload.prompt_cache_retention = "24h";
	if (retention !== "none" && compat.cacheControlFormat === "anthropic") applyAnthropicCacheControl(payload, long);

	applyReasoning(payload, model, options, compat);
	if (Object.keys(compat.openRouterRouting).length > 0) payload.provider = compat.openRouterRouting;
	if (compat.vllmPriority !== undefined) payload.priority = compat.vllmPriority;
	if (options.samplingParams) Object.assign(payload, options.samplingParams);
	return payload;
}

function hasToolHistory(transcript: TranscriptContext): boolean {
	return transcript.messages.some(
		(message) =>
			message.role === "toolResult" ||
			(message.role === "assistant" && message.content.some((block) => block.type === "toolCall")),
	);
}
