// Static catalog data for provider "groq" (pi-compatible layout: api → "<type>:<id>" → model).
import { type CatalogFile, catalogViews, freezeCatalog } from "../../models/catalog.js";

export const GROQ_CATALOG: CatalogFile = freezeCatalog({
	"openai-completions": {
		"chat:openai/gpt-oss-120b": {
			id: "openai/gpt-oss-120b",
			name: "GPT OSS 120B",
			api: "openai-completions",
			provider: "groq",
			type: "chat",
			baseUrl: "https://api.groq.com/openai/v1",
			reasoning: true,
			input: ["text"],
			cost: {
				input: 0.15,
				output: 0.75,
				cacheRead: 0,
				cacheWrite: 0,
			},
			contextWindow: 131072,
			maxTokens: 65536,
			compat: {
				supportsDeveloperRole: false,
				supportsStore: false,
			},
		},
		"chat:openai/gpt-oss-20b": {
			id: "openai/gpt-oss-20b",
			name: "GPT OSS 20B",
			api: "openai-completions",
			provider: "groq",
			type: "chat",
			baseUrl: "https://api.groq.com/openai/v1",
			reasoning: true,
			input: ["text"],
			cost: {
				input: 0.075,
				output: 0.3,
				cacheRead: 0,
				cacheWrite: 0,
			},
			contextWindow: 131072,
			maxTokens: 65536,
			compat: {
				supportsDeveloperRole: false,
				supportsStore: false,
			},
		},
		"chat:llama-3.3-70b-versatile": {
			id: "llama-3.3-70b-versatile",
			name: "Llama 3.3 70B Versatile",
			api: "openai-completions",
			provider: "groq",
			type: "chat",
			baseUrl: "https://api.groq.com/openai/v1",
			reasoning: false,
			input: ["text"],
			cost: {
				input: 0.59,
				output: 0.79,
				cacheRead: 0,
				cacheWrite: 0,
			},
			contextWindow: 131072,
			maxTokens: 32768,
			compat: {
				supportsDeveloperRole: false,
				supportsStore: false,
			},
		},
		"chat:moonshotai/kimi-k2-instruct-0905": {
			id: "moonshotai/kimi-k2-instruct-0905",
			name: "Kimi K2 Instruct 0905",
			api: "openai-completions",
			provider: "groq",
			type: "chat",
			baseUrl: "https://api.groq.com/openai/v1",
			reasoning: false,
			input: ["text"],
			cost: {
				input: 1,
				output: 3,
				cacheRead: 0,
				cacheWrite: 0,
			},
			contextWindow: 262144,
			maxTokens: 16384,
			compat: {
				supportsDeveloperRole: false,
				supportsStore: false,
			},
		},
	},
});

const views = catalogViews(GROQ_CATALOG);
export const GROQ_MODELS = views.chat;
export const GROQ_IMAGE_MODELS = views.image;
export const GROQ_CLASSIFIER_MODELS = views.classifier;
