import { getCurrentTools } from "../../system-messages/replay.js";
import type { OpenAIResponsesOptions } from "../../types/api-options.js";
import type { OpenAIResponsesCompat } from "../../types/compat.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import type { Tool } from "../../types/tools.js";
import { sanitizeSurrogates } from "../../utils/sanitize-surrogates.js";
import { cachingSessionId, clampCodePoints, resolveCacheRetention } from "../shared/cache-retention.js";
import { resolveToolSchema } from "../shared/tool-schema.js";
import { convertResponsesInput, type ResponsesInputItem, responsesInstructionRole } from "./messages.js";

/** The compat flags tau 1.0 honours, defaults applied (docs/design/ai-adapters.md#openai-responses). */
export interface ResolvedResponsesCompat {
	supportsDeveloperRole: boolean;
	supportsMidConvoSystemMessages: boolean;
	sessionAffinityFormat: "openai" | "openrouter";
	promptCacheKeyMode: "auto" | "enabled" | "disabled";
	supportsLongCacheRetention: boolean;
	supportsStrictMode: boolean;
	supportsMaxOutputTokens: boolean;
}

export function getResponsesCompat(model: Model<Api>): ResolvedResponsesCompat {
	const compat = (model.compat ?? {}) as OpenAIResponsesCompat;
	const openRouter = model.provider === "openrouter" || (model.baseUrl ?? "").includes("openrouter.ai");
	return {
		supportsDeveloperRole: compat.supportsDeveloperRole ?? true,
		supportsMidConvoSystemMessages: compat.supportsMidConvoSystemMessages ?? false,
		sessionAffinityFormat: compat.sessionAffinityFormat ?? (openRouter ? "openrouter" : "openai"),
		promptCacheKeyMode: compat.promptCacheKeyMode ?? "auto",
		supportsLongCacheRetention: compat.supportsLongCacheRetention ?? true,
		supportsStrictMode: compat.supportsStrictMode ?? false,
		supportsMaxOutputTokens: compat.supportsMaxOutputTokens ?? true,
	};
}

export type ResponsesPayload = Record<string, unknown> & { model: string; input: ResponsesInputItem[]; stream: true };

const MIN_OUTPUT_TOKENS = 16;
const ENCRYPTED_REASONING = "reasoning.encrypted_content";

function convertTool(tool: Tool, compat: ResolvedResponsesCompat): Record<string, unknown> {
	const { parameters, strict } = resolveToolSchema(tool, compat.supportsStrictMode);
	const converted: Record<string, unknown> = {
		type: "function",
		name: tool.name,
		description: sanitizeSurrogates(tool.description),
		parameters,
	};
	if (strict !== undefined) converted.strict = strict;
	return converted;
}

function applyReasoning(payload: ResponsesPayload, model: Model<Api>, options: OpenAIResponsesOptions): void {
	if (model.provider === "xai") payload.include = [ENCRYPTED_REASONING];
	if (!model.reasoning) return;
	const map = model.thinkingLevelMap ?? {};
	const effort = options.reasoningEffort ?? (options.reasoningSummary ? "medium" : undefined);
	if (effort) {
		payload.reasoning = { effort: map[effort] ?? effort, summary: options.reasoningSummary || "auto" };
		payload.include = [ENCRYPTED_REASONING];
	} else if (map.off !== null && model.provider !== "github-copilot") {
		payload.reasoning = { effort: map.off ?? "none" };
	}
}

/** The Responses request body (docs/design/ai-adapters.md#openai-responses), before `onPayload`. */
export function buildResponsesPayload(
	model: Model<Api>,
	transcript: TranscriptContext,
	options: OpenAIResponsesOptions,
	compat: ResolvedResponsesCompat,
): ResponsesPayload {
	const role = responsesInstructionRole(model, compat.supportsDeveloperRole);
	const payload: ResponsesPayload = {
		model: model.id,
		input: convertResponsesInput(transcript.messages, model, role),
		stream: true,
		store: false,
	};
	const retention = resolveCacheRetention(options);
	const sessionId = cachingSessionId(options);
	if (sessionId && compat.promptCacheKeyMode !== "disabled") payload.prompt_cache_key = clampCodePoints(sessionId, 64);
	if (retention === "long" && compat.supportsLongCacheRetention) payload.prompt_cache_retention = "24h";
	if (options.maxTokens !== undefined && compat.supportsMaxOutputTokens) {
		payload.max_output_tokens = Math.max(options.maxTokens, MIN_OUTPUT_TOKENS);
	}
	if (options.temperature !== undefined) payload.temperature = options.temperature;
	if (options.serviceTier !== undefined) payload.service_tier = options.serviceTier;
	if (options.toolChoice !== undefined) payload.tool_choice = options.toolChoice;
	const tools = getCurrentTools(transcript.messages).map((tool) => convertTool(tool, compat));
	if (tools.length > 0) payload.tools = tools;
	applyReasoning(payload, model, options);
	if (options.samplingParams) Object.assign(payload, options.samplingParams);
	return payload;
}
