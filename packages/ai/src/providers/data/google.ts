// Static catalog data for provider "google" (pi-compatible layout: api → "<type>:<id>" → model).
import { type CatalogFile, catalogViews, freezeCatalog } from "../../models/catalog.js";

export const GOOGLE_CATALOG: CatalogFile = freezeCatalog({
	"openai-completions": {
		"chat:gemini-2.5-pro": {
			id: "gemini-2.5-pro",
			name: "Gemini 2.5 Pro",
			api: "openai-completions",
			provider: "google",
			type: "chat",
			baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai",
			reasoning: true,
			input: ["text", "image"],
			cost: {
				input: 1.25,
				output: 10,
				cacheRead: 0.31,
				cacheWrite: 0,
				tiers: [
					{
						inputTokensAbove: 200000,
						input: 2.5,
						output: 15,
						cacheRead: 0.625,
						cacheWrite: 0,
					},
				],
			},
			contextWindow: 1048576,
			maxTokens: 65536,
			compat: {
				supportsDeveloperRole: false,
				supportsStore: false,
				thinkingFormat: "openai",
				maxTokensField: "max_tokens",
			},
			thinkingLevelMap: {
				off: null,
			},
		},
		"chat:gemini-2.5-flash": {
			id: "gemini-2.5-flash",
			name: "Gemini 2.5 Flash",
			api: "openai-completions",
			provider: "google",
			type: "chat",
			baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai",
			reasoning: true,
			input: ["text", "image"],
			cost: {
				input: 0.3,
				output: 2.5,
				cacheRead: 0.075,
				cacheWrite: 0,
			},
			contextWindow: 1048576,
			maxTokens: 65536,
			compat: {
				supportsDeveloperRole: false,
				supportsStore: false,
				thinkingFormat: "openai",
				maxTokensField: "max_tokens",
			},
		},
		"chat:gemini-2.5-flash-lite": {
			id: "gemini-2.5-flash-lite",
			name: "Gemini 2.5 Flash-Lite",
			api: "openai-completions",
			provider: "google",
			type: "chat",
			baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai",
			reasoning: true,
			input: ["text", "image"],
			cost: {
				input: 0.1,
				output: 0.4,
				cacheRead: 0.025,
				cacheWrite: 0,
			},
			contextWindow: 1048576,
			maxTokens: 65536,
			compat: {
				supportsDeveloperRole: false,
				supportsStore: false,
				thinkingFormat: "openai",
				maxTokensField: "max_tokens",
			},
		},
	},
});

const views = catalogViews(GOOGLE_CATALOG);
export const GOOGLE_MODELS = views.chat;
export const GOOGLE_IMAGE_MODELS = views.image;
export const GOOGLE_CLASSIFIER_MODELS = views.classifier;
