import type { Tool as BedrockTool, ConverseStreamCommandInput, ToolChoice } from "@aws-sdk/client-bedrock-runtime";
import { getSystemMessageText } from "../../system-messages/render.js";
import { getCurrentTools, getInitialSystemMessage, resolveTranscript } from "../../system-messages/replay.js";
import { thinkingBudgetFor } from "../../thinking/budgets.js";
import type { BedrockOptions } from "../../types/api-options.js";
import type { BedrockCompat } from "../../types/compat.js";
import type { TranscriptContext } from "../../types/context.js";
import type { Api, Model } from "../../types/model.js";
import type { ThinkingLevel } from "../../types/thinking.js";
import type { Tool } from "../../types/tools.js";
import { sanitizeSurrogates } from "../../utils/sanitize-surrogates.js";
import { resolveCacheRetention } from "../shared/cache-retention.js";
import { resolveToolSchema } from "../shared/tool-schema.js";
import { bedrockSystem, convertBedrockMessages } from "./messages.js";
import { hasAdaptiveThinking, hasXhighEffort, isClaude, isGpt, isGptOss } from "./models.js";

const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";

function toolConfig(
	tools: readonly Tool[],
	choice: BedrockOptions["toolChoice"],
	strict: boolean,
): ConverseStreamCommandInput["toolConfig"] {
	if (tools.length === 0 || choice === "none") return undefined;
	const converted: BedrockTool[] = tools.map((tool) => {
		const schema = resolveToolSchema(tool, strict);
		return {
			toolSpec: {
				name: tool.name,
				description: sanitizeSurrogates(tool.description),
				inputSchema: { json: schema.parameters as never },
				...(schema.strict ? { strict: true } : {}),
			},
		};
	});
	let toolChoice: ToolChoice | undefined;
	if (choice === "auto") toolChoice = { auto: {} };
	else if (choice === "any") toolChoice = { any: {} };
	else if (typeof choice === "object") toolChoice = { tool: { name: choice.name } };
	return { tools: converted, ...(toolChoice ? { toolChoice } : {}) };
}

function claudeEffort(model: Model<Api>, level: ThinkingLevel): string {
	if (level === "xhigh" && hasXhighEffort(model)) return "xhigh";
	const mapped = model.thinkingLevelMap?.[level];
	if (typeof mapped === "string") return mapped;
	if (level === "minimal" || level === "low") return "low";
	return level === "medium" ? "medium" : "high";
}

/** GovCloud rejects the thinking `display` field. */
function isGovCloud(model: Model<Api>, region: string | undefined): boolean {
	const id = model.id.toLowerCase();
	return (
		(region?.toLowerCase().startsWith("us-gov-") ?? false) ||
		id.startsWith("us-gov.") ||
		id.startsWith("arn:aws-us-gov:")
	);
}

/** Thinking travels as model-specific fields: Claude's thinking config, OpenAI's reasoning effort. */
function reasoningFields(
	model: Model<Api>,
	options: BedrockOptions,
	region: string | undefined,
): Record<string, unknown> | undefined {
	const level = options.reasoning;
	if (!level || !model.reasoning) return undefined;
	if (isClaude(model)) {
		const display = isGovCloud(model, region) ? undefined : (options.thinkingDisplay ?? "summarized");
		if (hasAdaptiveThinking(model)) {
			return {
				thinking: { type: "adaptive", ...(display ? { display } : {}) },
				output_config: { effort: claudeEffort(model, level) },
			};
		}
		return {
			thinking: {
				type: "enabled",
				budget_tokens: thinkingBudgetFor(level, options.thinkingBudgets),
				...(display ? { display } : {}),
			},
			...(options.interleavedThinking !== false ? { anthropic_beta: [INTERLEAVED_THINKING_BETA] } : {}),
		};
	}
	const capped = level === "xhigh" || level === "max" ? "high" : level === "minimal" ? "low" : level;
	if (isGptOss(model)) return { reasoning_effort: capped };
	if (isGpt(model)) {
		const mapped = model.thinkingLevelMap?.[level];
		return { reasoning: { effort: typeof mapped === "string" ? mapped : level === "minimal" ? "low" : level } };
	}
	return undefined;
}

/** The ConverseStream input for one request, before `onPayload`. */
export function buildBedrockInput(
	model: Model<Api>,
	context: TranscriptContext,
	options: BedrockOptions,
	region: string | undefined,
): ConverseStreamCommandInput {
	const transcript = resolveTranscript(context, false);
	const head = getInitialSystemMessage(transcript.messages);
	const rest = head ? transcript.messages.slice(1) : transcript.messages;
	const retention = resolveCacheRetention(options);
	const strict = (model.compat as BedrockCompat | undefined)?.supportsStrictMode ?? false;
	// Claude on Bedrock needs an explicit output limit; other models keep the service default.
	const maxTokens = options.maxTokens ?? (isClaude(model) ? model.maxTokens : undefined);
	const input: ConverseStreamCommandInput = {
		modelId: model.id,
		messages: convertBedrockMessages(rest, model, retention),
		inferenceConfig: {
			...(maxTokens !== undefined ? { maxTokens } : {}),
			...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
		},
	};
	const system = bedrockSystem(getSystemMessageText(head), model, retention);
	if (system) input.system = system;
	const tools = toolConfig(getCurrentTools(transcript.messages), options.toolChoice, strict);
	if (tools) input.toolConfig = tools;
	const fields = reasoningFields(model, options, region);
	if (fields) input.additionalModelRequestFields = fields as never;
	if (options.requestMetadata) input.requestMetadata = options.requestMetadata;
	return input;
}
