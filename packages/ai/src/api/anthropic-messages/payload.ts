import type {
	Tool as AnthropicTool,
	CacheControlEphemeral,
	ContentBlockParam,
	MessageCreateParamsStreaming,
	MessageParam,
	TextBlockParam,
} from "@anthropic-ai/sdk/resources/messages/messages.js";
import { getSystemMessageText } from "../../system-messages/render.js";
import { getCurrentTools, getInitialSystemMessage } from "../../system-messages/replay.js";
import type { AnthropicOptions } from "../../types/api-options.js";
import type { AnthropicMessagesCompat } from "../../types/compat.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import type { CacheRetention } from "../../types/thinking.js";
import type { Tool } from "../../types/tools.js";
import { sanitizeSurrogates } from "../../utils/sanitize-surrogates.js";
import { resolveCacheRetention } from "../shared/cache-retention.js";
import { resolveToolSchema } from "../shared/tool-schema.js";
import { fromClaudeCodeName, toClaudeCodeName } from "./claude-code-tool-names.js";
import { convertAnthropicMessages } from "./messages.js";
import { CLAUDE_CODE_IDENTITY, isSubscriptionToken, SUBSCRIPTION_BETAS } from "./subscription-token.js";

/** Compat flags with their defaults filled in (docs/design/ai-adapters.md#anthropic-messages). */
export interface ResolvedAnthropicCompat {
	supportsEagerToolInputStreaming: boolean;
	supportsLongCacheRetention: boolean;
	sendSessionAffinityHeaders: boolean;
	sessionAffinityFormat: "openai" | "openrouter";
	supportsCacheControlOnTools: boolean;
	supportsTemperature: boolean;
	forceAdaptiveThinking: boolean;
	supportsStrictTools: boolean;
	supportsMidConvoSystemMessages: boolean;
}

export function getAnthropicCompat(model: Model<Api>): ResolvedAnthropicCompat {
	const compat = (model.compat ?? {}) as AnthropicMessagesCompat;
	const openRouter = model.provider === "openrouter" || (model.baseUrl ?? "").includes("openrouter.ai");
	return {
		supportsEagerToolInputStreaming: compat.supportsEagerToolInputStreaming ?? true,
		supportsLongCacheRetention: compat.supportsLongCacheRetention ?? true,
		sendSessionAffinityHeaders: compat.sendSessionAffinityHeaders ?? openRouter,
		sessionAffinityFormat: compat.sessionAffinityFormat ?? (openRouter ? "openrouter" : "openai"),
		supportsCacheControlOnTools: compat.supportsCacheControlOnTools ?? true,
		supportsTemperature: compat.supportsTemperature ?? true,
		forceAdaptiveThinking: compat.forceAdaptiveThinking ?? false,
		supportsStrictTools: compat.supportsStrictTools ?? false,
		supportsMidConvoSystemMessages: compat.supportsMidConvoSystemMessages ?? false,
	};
}

/** Keywords Anthropic's strict tool mode rejects on top of the generic strict-schema rules. */
const ANTHROPIC_STRICT_UNSUPPORTED = new Set([
	"minimum",
	"maximum",
	"exclusiveMinimum",
	"exclusiveMaximum",
	"multipleOf",
	"maxItems",
	"uniqueItems",
	"minContains",
	"maxContains",
	"minProperties",
	"maxProperties",
]);
const ANTHROPIC_STRICT_FORMATS = new Set([
	"date-time",
	"time",
	"date",
	"duration",
	"email",
	"hostname",
	"uri",
	"ipv4",
	"ipv6",
	"uuid",
]);

function isAnthropicStrictUnsupported(keyword: string, value: unknown): boolean {
	if (ANTHROPIC_STRICT_UNSUPPORTED.has(keyword)) return true;
	if (keyword === "minItems") return value !== 0 && value !== 1;
	if (keyword === "format") return typeof value !== "string" || !ANTHROPIC_STRICT_FORMATS.has(value);
	return false;
}

function inputSchema(parameters: Record<string, unknown>): AnthropicTool.InputSchema {
	// Anthropic rejects root combinators (anyOf/oneOf/allOf), so only these root keywords travel.
	const schema: AnthropicTool.InputSchema = {
		type: "object",
		properties: parameters.properties ?? {},
		required: (parameters.required as string[] | undefined) ?? [],
	};
	for (const key of ["additionalProperties", "$defs", "definitions"]) {
		if (parameters[key] !== undefined) schema[key] = parameters[key];
	}
	return schema;
}

function convertTool(tool: Tool, compat: ResolvedAnthropicCompat, wireName: (name: string) => string): AnthropicTool {
	const { parameters, strict } = resolveToolSchema(tool, compat.supportsStrictTools, isAnthropicStrictUnsupported);
	const converted: AnthropicTool = {
		name: wireName(tool.name),
		description: sanitizeSurrogates(tool.description),
		input_schema: inputSchema(parameters),
	};
	if (compat.supportsEagerToolInputStreaming) converted.eager_input_streaming = true;
	if (strict) converted.strict = true;
	return converted;
}

function cacheControl(retention: CacheRetention, compat: ResolvedAnthropicCompat): CacheControlEphemeral | undefined {
	if (retention === "none") return undefined;
	return retention === "long" && compat.supportsLongCacheRetention
		? { type: "ephemeral", ttl: "1h" }
		: { type: "ephemeral" };
}

/** Marks the last block of the last message when it is a user/system turn (the cache breakpoint). */
function markLastMessage(messages: MessageParam[], control: CacheControlEphemeral): void {
	const last = messages.at(-1);
	if (!last || last.role === "assistant") return;
	if (typeof last.content === "string") last.content = [{ type: "text", text: last.content }];
	const block = last.content.at(-1) as (ContentBlockParam & { cache_control?: CacheControlEphemeral }) | undefined;
	if (block && block.type !== "thinking" && block.type !== "redacted_thinking") block.cache_control = control;
}

/** The request body; `temperature` is still accepted by the API though this SDK's types omit it. */
export type AnthropicPayload = MessageCreateParamsStreaming & { temperature?: number };

export interface AnthropicRequestPlan {
	params: AnthropicPayload;
	/** Beta features this request needs, before header overrides. */
	betas: string[];
	/** The tau tool name for a tool name in the response (a subscription request renames tools). */
	responseToolName: (name: string) => string;
}

const sameName = (name: string): string => name;

export function buildAnthropicPayload(
	model: Model<Api>,
	transcript: TranscriptContext,
	options: AnthropicOptions,
	compat: ResolvedAnthropicCompat,
): AnthropicRequestPlan {
	const retention = resolveCacheRetention(options);
	const control = cacheControl(retention, compat);
	const head = getInitialSystemMessage(transcript.messages);
	const rest = head ? transcript.messages.slice(1) : transcript.messages;
	const subscription = isSubscriptionToken(options.apiKey);
	const wireName = subscription ? toClaudeCodeName : sameName;
	const messages = convertAnthropicMessages(rest, model, wireName);
	if (control) markLastMessage(messages, control);

	const params: AnthropicPayload = {
		model: model.id,
		messages,
		max_tokens: options.maxTokens ?? model.maxTokens,
		stream: true,
	};
	const systemText = getSystemMessageText(head);
	const system: TextBlockParam[] = subscription ? [{ type: "text", text: CLAUDE_CODE_IDENTITY }] : [];
	if (systemText) system.push({ type: "text", text: sanitizeSurrogates(systemText) });
	const lastSystem = system.at(-1);
	if (lastSystem && control) lastSystem.cache_control = control;
	if (system.length > 0) params.system = system;

	const declared = getCurrentTools(transcript.messages);
	const tools = declared.map((tool) => convertTool(tool, compat, wireName));
	if (tools.length > 0) {
		const last = tools.at(-1);
		if (last && control && compat.supportsCacheControlOnTools) last.cache_control = control;
		params.tools = tools;
	}

	const thinkingEnabled = model.reasoning && options.thinkingEnabled === true;
	const adaptive = compat.forceAdaptiveThinking;
	if (model.reasoning && options.thinkingEnabled === false && model.thinkingLevelMap?.off !== null) {
		params.thinking = { type: "disabled" };
	} else if (thinkingEnabled) {
		const display = options.thinkingDisplay ?? "summarized";
		if (adaptive) {
			params.thinking = { type: "adaptive", display };
			if (options.effort) params.output_config = { effort: options.effort };
		} else {
			params.thinking = { type: "enabled", budget_tokens: options.thinkingBudgetTokens || 1024, display };
		}
	}
	if (options.temperature !== undefined && !thinkingEnabled && compat.supportsTemperature) {
		params.temperature = options.temperature;
	}
	const userId = options.metadata?.user_id;
	if (typeof userId === "string") params.metadata = { user_id: userId };
	if (options.toolChoice !== undefined) {
		params.tool_choice = typeof options.toolChoice === "string" ? { type: options.toolChoice } : options.toolChoice;
	}

	const betas: string[] = subscription ? [...SUBSCRIPTION_BETAS] : [];
	if (tools.length > 0 && !compat.supportsEagerToolInputStreaming)
		betas.push("fine-grained-tool-streaming-2025-05-14");
	if (thinkingEnabled && options.interleavedThinking !== false && !adaptive)
		betas.push("interleaved-thinking-2025-05-14");
	const responseToolName = subscription ? (name: string) => fromClaudeCodeName(name, declared) : sameName;
	return { params, betas, responseToolName };
}
