// Static catalog data for provider "anthropic" (pi-compatible layout: api → "<type>:<id>" → model).
import { type CatalogFile, catalogViews, freezeCatalog } from "../../models/catalog.js";

export const ANTHROPIC_CATALOG: CatalogFile = freezeCatalog({
	"anthropic-messages": {
		"chat:claude-opus-4-1": {
			id: "claude-opus-4-1",
			name: "Claude Opus 4.1",
			api: "anthropic-messages",
			provider: "anthropic",
			type: "chat",
			baseUrl: "https://api.anthropic.com",
			reasoning: true,
			input: ["text", "image"],
			cost: {
				input: 15,
				output: 75,
				cacheRead: 1.5,
				cacheWrite: 18.75,
			},
			contextWindow: 200000,
			maxTokens: 32000,
		},
		"chat:claude-sonnet-4-5": {
			id: "claude-sonnet-4-5",
			name: "Claude Sonnet 4.5",
			api: "anthropic-messages",
			provider: "anthropic",
			type: "chat",
			baseUrl: "https://api.anthropic.com",
			reasoning: true,
			input: ["text", "image"],
			cost: {
				input: 3,
				output: 15,
				cacheRead: 0.3,
				cacheWrite: 3.75,
				tiers: [
					{
						inputTokensAbove: 200000,
						input: 6,
						output: 22.5,
						cacheRead: 0.6,
						cacheWrite: 7.5,
					},
				],
			},
			contextWindow: 200000,
			maxTokens: 64000,
		},
		"chat:claude-sonnet-4-0": {
			id: "claude-sonnet-4-0",
			name: "Claude Sonnet 4",
			api: "anthropic-messages",
			provider: "anthropic",
			type: "chat",
			baseUrl: "https://api.anthropic.com",
			reasoning: true,
			input: ["text", "image"],
			cost: {
				input: 3,
				output: 15,
				cacheRead: 0.3,
				cacheWrite: 3.75,
			},
			contextWindow: 200000,
			maxTokens: 64000,
		},
		"chat:claude-haiku-4-5": {
			id: "claude-haiku-4-5",
			name: "Claude Haiku 4.5",
			api: "anthropic-messages",
			provider: "anthropic",
			type: "chat",
			baseUrl: "https://api.anthropic.com",
			reasoning: true,
			input: ["text", "image"],
			cost: {
				input: 1,
				output: 5,
				cacheRead: 0.1,
				cacheWrite: 1.25,
			},
			contextWindow: 200000,
			maxTokens: 64000,
		},
		"chat:claude-3-5-haiku-latest": {
			id: "claude-3-5-haiku-latest",
			name: "Claude Haiku 3.5",
			api: "anthropic-messages",
			provider: "anthropic",
			type: "chat",
			baseUrl: "https://api.anthropic.com",
			reasoning: false,
			input: ["text", "image"],
			cost: {
				input: 0.8,
				output: 4,
				cacheRead: 0.08,
				cacheWrite: 1,
			},
			contextWindow: 200000,
			maxTokens: 8192,
		},
	},
});

const views = catalogViews(ANTHROPIC_CATALOG);
export const ANTHROPIC_MODELS = views.chat;
export const ANTHROPIC_IMAGE_MODELS = views.image;
export const ANTHROPIC_CLASSIFIER_MODELS = views.classifier;
