import type { AnyModel, Api, ClassifierModel, ImageModel, Model } from "../types/model.js";
import { getModelType } from "./model-helpers.js";

/**
 * A provider's shipped catalog in the pi-compatible layout: API id → `"<type>:<model id>"` → complete model.
 */
export type CatalogFile = Readonly<Record<string, Readonly<Record<string, AnyModel>>>>;

/** Compat keys each API accepts; a catalog entry with any other key is invalid. */
const RESPONSES_COMPAT_KEYS = [
	"supportsDeveloperRole",
	"supportsMidConvoSystemMessages",
	"sessionAffinityFormat",
	"promptCacheKeyMode",
	"supportsLongCacheRetention",
	"supportsStrictMode",
	"supportsOpenAIGrammarTools",
	"supportsAdditionalTools",
	"supportsToolSearch",
	"supportsExplicitPromptCacheMode",
	"supportsMidConvoEffort",
	"supportsMaxOutputTokens",
	"supportsReasoningEffort",
];

const COMPAT_KEYS: Record<string, readonly string[]> = {
	"openai-completions": [
		"supportsStore",
		"supportsDeveloperRole",
		"supportsReasoningEffort",
		"supportsUsageInStreaming",
		"supportsFinishReason",
		"maxTokensField",
		"requiresToolResultName",
		"requiresAssistantAfterToolResult",
		"requiresNonNullAssistantContent",
		"requiresToolsWithToolHistory",
		"requiresThinkingAsText",
		"requiresReasoningContentOnAssistantMessages",
		"thinkingFormat",
		"chatTemplateKwargs",
		"chatTemplateArgs",
		"openRouterRouting",
		"vercelGatewayRouting",
		"thinkingTokenBudgetField",
		"supportsThinkingTokenBudget",
		"supportsStrictMode",
		"supportsOpenAIGrammarTools",
		"supportsMidConvoSystemMessages",
		"supportsMidConvoToolAdditions",
		"zaiToolStream",
		"cacheControlFormat",
		"sendSessionAffinityHeaders",
		"sessionAffinityFormat",
		"supportsLongCacheRetention",
		"promptCacheKeyMode",
		"vllmPriority",
	],
	"openai-responses": RESPONSES_COMPAT_KEYS,
	"azure-openai-responses": RESPONSES_COMPAT_KEYS,
	"openai-codex-responses": RESPONSES_COMPAT_KEYS,
	"bedrock-converse-stream": ["supportsStrictMode"],
	"mistral-conversations": ["supportsMidConvoSystemMessages", "supportsStrictMode"],
	"anthropic-messages": [
		"supportsEagerToolInputStreaming",
		"supportsLongCacheRetention",
		"sendSessionAffinityHeaders",
		"sessionAffinityFormat",
		"supportsCacheControlOnTools",
		"supportsTemperature",
		"forceAdaptiveThinking",
		"allowEmptySignature",
		"supportsStrictTools",
		"supportsMidConvoEffort",
		"supportsMidConvoSystemMessages",
		"supportsMidConvoToolChanges",
		"supportsMessageThreads",
		"allowedFallbackModels",
	],
};

const TYPES = ["chat", "image", "classifier"];

function validateEntry(providerId: string, api: string, key: string, entry: AnyModel, errors: string[]): void {
	const where = `${providerId}/${api}/${key}`;
	const record = entry as unknown as Record<string, unknown>;
	const required = ["id", "name", "api", "provider", "baseUrl", "input", "cost", "type"];
	if (record.type === "chat" || record.type === undefined) required.push("reasoning", "contextWindow", "maxTokens");
	if (record.type === "image") required.push("output");
	if (record.type === "classifier") required.push("contextWindow");
	for (const field of required)
		if (record[field] === undefined) errors.push(`${where}: missing required field "${field}"`);
	if (entry.api !== api) errors.push(`${where}: api "${entry.api}" does not match its group "${api}"`);
	if (entry.provider !== providerId)
		errors.push(`${where}: provider "${entry.provider}" does not match the file "${providerId}"`);
	const [prefix, ...rest] = key.split(":");
	if (!TYPES.includes(prefix as string) || record.type !== prefix) {
		errors.push(`${where}: type "${String(record.type)}" does not match the key prefix "${prefix}"`);
	}
	if (rest.join(":") !== entry.id) errors.push(`${where}: key does not name model id "${entry.id}"`);
	const cost = (entry.cost ?? {}) as unknown as Record<string, unknown>;
	for (const field of ["input", "output", "cacheRead", "cacheWrite"]) {
		const value = cost[field];
		if (typeof value !== "number" || !(value >= 0)) errors.push(`${where}: cost.${field} must be a number >= 0`);
	}
	const compat = record.compat;
	const allowed = COMPAT_KEYS[api];
	if (compat !== undefined && allowed) {
		for (const compatKey of Object.keys(compat as object)) {
			if (!allowed.includes(compatKey)) errors.push(`${where}: invalid compat key "${compatKey}" for api "${api}"`);
		}
	}
}

/** Every problem of a catalog file; empty when it is valid. */
export function validateCatalog(providerId: string, file: CatalogFile): string[] {
	const errors: string[] = [];
	const seen = new Set<string>();
	for (const [api, entries] of Object.entries(file)) {
		for (const [key, entry] of Object.entries(entries)) {
			validateEntry(providerId, api, key, entry, errors);
			const identity = `${getModelType(entry)}:${entry.id}`;
			if (seen.has(identity)) errors.push(`${providerId}/${api}/${key}: duplicate (type, id) "${identity}"`);
			seen.add(identity);
		}
	}
	return errors;
}

/** All models of a catalog file, in file order. */
export function catalogModels(file: CatalogFile): AnyModel[] {
	return Object.values(file).flatMap((entries) => Object.values(entries));
}

/** Typed flattened views keyed by id. */
export function catalogViews(file: CatalogFile): {
	chat: Readonly<Record<string, Model<Api>>>;
	image: Readonly<Record<string, ImageModel>>;
	classifier: Readonly<Record<string, ClassifierModel>>;
} {
	const chat: Record<string, Model<Api>> = {};
	const image: Record<string, ImageModel> = {};
	const classifier: Record<string, ClassifierModel> = {};
	for (const model of catalogModels(file)) {
		if (model.type === "image") image[model.id] = model;
		else if (model.type === "classifier") classifier[model.id] = model;
		else chat[model.id] = model;
	}
	return { chat: Object.freeze(chat), image: Object.freeze(image), classifier: Object.freeze(classifier) };
}

function deepFreeze<T>(value: T): T {
	if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const child of Object.values(value)) deepFreeze(child);
	}
	return value;
}

/** Shipped catalogs are immutable: a caller editing a model must copy it first. */
export function freezeCatalog(file: CatalogFile): CatalogFile {
	return deepFreeze(file);
}
