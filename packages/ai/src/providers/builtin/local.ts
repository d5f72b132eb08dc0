import type { ApiKeyAuth } from "../../types/auth.js";
import type { OpenAICompletionsCompat } from "../../types/compat.js";
import type { AnyModel, Model } from "../../types/model.js";
import type { Provider, RefreshModelsContext } from "../../types/provider.js";
import { createProvider } from "../create-provider.js";
import { openAICompletionsApi } from "../lazy-apis/openai-completions.js";

/** Local servers get conservative defaults unless they report otherwise. */
const LOCAL_CONTEXT_WINDOW = 32768;
const LOCAL_MAX_TOKENS = 8192;

const LOCAL_COMPAT: OpenAICompletionsCompat = {
	supportsDeveloperRole: false,
	supportsStore: false,
	supportsReasoningEffort: false,
	maxTokensField: "max_tokens",
};

interface LocalProviderDefinition {
	id: string;
	name: string;
	baseUrl: string;
	/** Optional key for servers started with one. */
	keyEnvVar?: string;
	compat?: OpenAICompletionsCompat;
}

/**
 * Always configured: the key when its env var (or a stored one) is set, else a placeholder key (the provider
 * id), since the OpenAI-compatible adapter sends one and a server started without a key ignores it.
 */
function optionalKeyAuth(id: string, name: string, envVar: string | undefined): ApiKeyAuth {
	return {
		name,
		async resolve({ ctx, credential }) {
			if (credential?.key) return { auth: { apiKey: credential.key }, source: "stored credential" };
			const key = envVar ? await ctx.env(envVar) : undefined;
			return key
				? { auth: { apiKey: key }, source: envVar }
				: { auth: { apiKey: id }, source: "no key (local server)" };
		},
	};
}

/** A model list entry; servers report the context size under different names (or not at all). */
interface ListedModel {
	id?: unknown;
	/** Ollama's and LM Studio's OpenAI-compatible lists, when they report it. */
	context_length?: unknown;
	/** vLLM. */
	max_model_len?: unknown;
	/** llama.cpp: the context the model was trained with. */
	meta?: { n_ctx_train?: unknown };
}

/** Lists the server's models with `GET <baseUrl>/models` (OpenAI-compatible). */
function modelFetcher(definition: LocalProviderDefinition, compat: OpenAICompletionsCompat) {
	return async (ctx: RefreshModelsContext): Promise<AnyModel[]> => {
		const baseUrl = ctx.baseUrl ?? definition.baseUrl;
		const headers: Record<string, string> = {};
		const key = ctx.credential?.type === "api_key" ? ctx.credential.key : undefined;
		if (key) headers.Authorization = `Bearer ${key}`;
		const url = `${baseUrl}/models`;
		const response = await fetch(url, { headers, signal: ctx.signal }).catch((error: unknown) => {
			// fetch says only "fetch failed"; the cause names the reason (ECONNREFUSED: the server is not running).
			const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
			const reason = typeof cause?.code === "string" ? cause.code : String(cause?.message ?? error);
			throw new Error(`${definition.name} is not answering at ${url} (${reason})`);
		});
		if (!response.ok) throw new Error(`${definition.name} model list failed: HTTP ${response.status}`);
		const body = (await response.json()) as { data?: ListedModel[] };
		return (body.data ?? [])
			.filter((entry): entry is ListedModel & { id: string } => typeof entry.id === "string")
			.map((entry): Model<"openai-completions"> => {
				const reported = Number(entry.context_length ?? entry.max_model_len ?? entry.meta?.n_ctx_train);
				return {
					id: entry.id,
					name: entry.id,
					api: "openai-completions",
					provider: definition.id,
					type: "chat",
					baseUrl,
					reasoning: false,
					input: ["text"],
					cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
					contextWindow: Number.isFinite(reported) && reported > 0 ? reported : LOCAL_CONTEXT_WINDOW,
					maxTokens: LOCAL_MAX_TOKENS,
					compat,
				};
			});
	};
}

function localProvider(definition: LocalProviderDefinition): Provider {
	const compat = { ...LOCAL_COMPAT, ...definition.compat };
	return createProvider({
		id: definition.id,
		name: definition.name,
		baseUrl: definition.baseUrl,
		auth: { apiKey: optionalKeyAuth(definition.id, definition.name, definition.keyEnvVar) },
		models: [],
		fetchModels: modelFetcher(definition, compat),
		api: openAICompletionsApi(),
	});
}

/** An Ollama server on localhost:11434 whose models are listed from the server itself. */
export function ollamaProvider(): Provider {
	return localProvider({
		id: "ollama",
		name: "Ollama",
		baseUrl: "http://localhost:11434/v1",
		keyEnvVar: "OLLAMA_API_KEY",
	});
}

/** A llama.cpp server (`LLAMA_BASE_URL`, default port 8080) whose models are listed from the server itself. */
export function llamaCppProvider(): Provider {
	return localProvider({
		id: "llamacpp",
		name: "llama.cpp",
		baseUrl: process.env.LLAMA_BASE_URL || "http://127.0.0.1:8080/v1",
		keyEnvVar: "LLAMA_API_KEY",
		compat: { thinkingTokenBudgetField: "thinking_budget_tokens" },
	});
}

/** An LM Studio server on localhost:1234 whose models are listed from the server itself. */
export function lmStudioProvider(): Provider {
	return localProvider({ id: "lmstudio", name: "LM Studio", baseUrl: "http://localhost:1234/v1" });
}

/** A vLLM server on localhost:8000 whose models are listed from the server itself. */
export function vllmProvider(): Provider {
	return localProvider({
		id: "vllm",
		name: "vLLM",
		baseUrl: "http://localhost:8000/v1",
		keyEnvVar: "VLLM_API_KEY",
		compat: { thinkingTokenBudgetField: "thinking_token_budget" },
	});
}
