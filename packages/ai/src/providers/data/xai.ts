// Static catalog data for provider "xai" (pi-compatible layout: api → "<type>:<id>" → model).
import { type CatalogFile, catalogViews, freezeCatalog } from "../../models/catalog.js";

export const XAI_CATALOG: CatalogFile = freezeCatalog({
	"openai-responses": {
		"chat:grok-4": {
			id: "grok-4",
			name: "Grok 4",
			api: "openai-responses",
			provider: "xai",
			type: "chat",
			baseUrl: "https://api.x.ai/v1",
			reasoning: true,
			input: ["text", "image"],
			cost: {
				input: 3,
				output: 15,
				cacheRead: 0.75,
				cacheWrite: 0,
			},
			contextWindow: 256000,
			maxTokens: 64000,
			compat: {
				supportsLongCacheRetention: false,
			},
			thinkingLevelMap: {
				off: null,
			},
		},
		"chat:grok-4-fast": {
			id: "grok-4-fast",
			name: "Grok 4 Fast",
			api: "openai-responses",
			provider: "xai",
			type: "chat",
			baseUrl: "https://api.x.ai/v1",
			reasoning: true,
			input: ["text", "image"],
			cost: {
				input: 0.2,
				output: 0.5,
				cacheRead: 0.05,
				cacheWrite: 0,
			},
			contextWindow: 2000000,
			maxTokens: 30000,
			compat: {
				supportsLongCacheRetention: false,
			},
		},
		"chat:grok-code-fast-1": {
			id: "grok-code-fast-1",
			name: "Grok Code Fast 1",
			api: "openai-responses",
			provider: "xai",
			type: "chat",
			baseUrl: "https://api.x.ai/v1",
			reasoning: true,
			input: ["text"],
			cost: {
				input: 0.2,
				output: 1.5,
				cacheRead: 0.02,
				cacheWrite: 0,
			},
			contextWindow: 256000,
			maxTokens: 10000,
			compat: {
				supportsLongCacheRetention: false,
			},
			thinkingLevelMap: {
				off: null,
			},
		},
		"chat:grok-3-mini": {
			id: "grok-3-mini",
			name: "Grok 3 Mini",
			api: "openai-responses",
			provider: "xai",
			type: "chat",
			baseUrl: "https://api.x.ai/v1",
			reasoning: true,
			input: ["text"],
			cost: {
				input: 0.3,
				output: 0.5,
				cacheRead: 0.075,
				cacheWrite: 0,
			},
			contextWindow: 131072,
			maxTokens: 8192,
			compat: {
				supportsLongCacheRetention: false,
			},
		},
	},
});

const views = catalogViews(XAI_CATALOG);
export const XAI_MODELS = views.chat;
export const XAI_IMAGE_MODELS = views.image;
export const XAI_CLASSIFIER_MODELS = views.classifier;
