// Static catalog data for provider "deepseek" (pi-compatible layout: api → "<type>:<id>" → model).
import { type CatalogFile, catalogViews, freezeCatalog } from "../../models/catalog.js";

export const DEEPSEEK_CATALOG: CatalogFile = freezeCatalog({
	"openai-completions": {
		"chat:deepseek-chat": {
			id: "deepseek-chat",
			name: "DeepSeek Chat",
			api: "openai-completions",
			provider: "deepseek",
			type: "chat",
			baseUrl: "https://api.deepseek.com",
			reasoning: false,
			input: ["text"],
			cost: {
				input: 0.28,
				output: 0.42,
				cacheRead: 0.028,
				cacheWrite: 0,
			},
			contextWindow: 128000,
			maxTokens: 8192,
			compat: {
				thinkingFormat: "deepseek",
				maxTokensField: "max_tokens",
				requiresReasoningContentOnAssistantMessages: true,
				supportsStore: false,
			},
		},
		"chat:deepseek-reasoner": {
			id: "deepseek-reasoner",
			name: "DeepSeek Reasoner",
			api: "openai-completions",
			provider: "deepseek",
			type: "chat",
			baseUrl: "https://api.deepseek.com",
			reasoning: true,
			input: ["text"],
			cost: {
				input: 0.28,
				output: 0.42,
				cacheRead: 0.028,
				cacheWrite: 0,
			},
			contextWindow: 128000,
			maxTokens: 65536,
			compat: {
				thinkingFormat: "deepseek",
				maxTokensField: "max_tokens",
				requiresReasoningContentOnAssistantMessages: true,
				supportsStore: false,
			},
			thinkingLevelMap: {
				off: null,
			},
		},
	},
});

const views = catalogViews(DEEPSEEK_CATALOG);
export const DEEPSEEK_MODELS = views.chat;
export const DEEPSEEK_IMAGE_MODELS = views.image;
export const DEEPSEEK_CLASSIFIER_MODELS = views.classifier;
