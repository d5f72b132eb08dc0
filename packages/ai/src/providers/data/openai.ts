// Static catalog data for provider "openai" (pi-compatible layout: api → "<type>:<id>" → model).
import { type CatalogFile, catalogViews, freezeCatalog } from "../../models/catalog.js";

export const OPENAI_CATALOG: CatalogFile = freezeCatalog({
	"openai-responses": {
		"chat:gpt-5": {
			id: "gpt-5",
			name: "GPT-5",
			api: "openai-responses",
			provider: "openai",
			type: "chat",
			baseUrl: "https://api.openai.com/v1",
			reasoning: true,
			input: ["text", "image"],
			cost: {
				input: 1.25,
				output: 10,
				cacheRead: 0.125,
				cacheWrite: 0,
			},
			contextWindow: 400000,
			maxTokens: 128000,
			thinkingLevelMap: {
				off: null,
			},
		},
		"chat:gpt-5-mini": {
			id: "gpt-5-mini",
			name: "GPT-5 mini",
			api: "openai-responses",
			provider: "openai",
			type: "chat",
			baseUrl: "https://api.openai.com/v1",
			reasoning: true,
			input: ["text", "image"],
			cost: {
				input: 0.25,
				output: 2,
				cacheRead: 0.025,
				cacheWrite: 0,
			},
			contextWindow: 400000,
			maxTokens: 128000,
			thinkingLevelMap: {
				off: null,
			},
		},
		"chat:gpt-5-nano": {
			id: "gpt-5-nano",
			name: "GPT-5 nano",
			api: "openai-responses",
			provider: "openai",
			type: "chat",
			baseUrl: "https://api.openai.com/v1",
			reasoning: true,
			input: ["text", "image"],
			cost: {
				input: 0.05,
				output: 0.4,
				cacheRead: 0.005,
				cacheWrite: 0,
			},
			contextWindow: 400000,
			maxTokens: 128000,
			thinkingLevelMap: {
				off: null,
			},
		},
		"chat:gpt-4.1": {
			id: "gpt-4.1",
			name: "GPT-4.1",
			api: "openai-responses",
			provider: "openai",
			type: "chat",
			baseUrl: "https://api.openai.com/v1",
			reasoning: false,
			input: ["text", "image"],
			cost: {
				input: 2,
				output: 8,
				cacheRead: 0.5,
				cacheWrite: 0,
			},
			contextWindow: 1047576,
			maxTokens: 32768,
		},
		"chat:gpt-4o": {
			id: "gpt-4o",
			name: "GPT-4o",
			api: "openai-responses",
			provider: "openai",
			type: "chat",
			baseUrl: "https://api.openai.com/v1",
			reasoning: false,
			input: ["text", "image"],
			cost: {
				input: 2.5,
				output: 10,
				cacheRead: 1.25,
				cacheWrite: 0,
			},
			contextWindow: 128000,
			maxTokens: 16384,
		},
		"chat:o4-mini": {
			id: "o4-mini",
			name: "o4-mini",
			api: "openai-responses",
			provider: "openai",
			type: "chat",
			baseUrl: "https://api.openai.com/v1",
			reasoning: true,
			input: ["text", "image"],
			cost: {
				input: 1.1,
				output: 4.4,
				cacheRead: 0.275,
				cacheWrite: 0,
			},
			contextWindow: 200000,
			maxTokens: 100000,
			thinkingLevelMap: {
				off: null,
				minimal: null,
			},
		},
	},
});

const views = catalogViews(OPENAI_CATALOG);
export const OPENAI_MODELS = views.chat;
export const OPENAI_IMAGE_MODELS = views.image;
export const OPENAI_CLASSIFIER_MODELS = views.classifier;
