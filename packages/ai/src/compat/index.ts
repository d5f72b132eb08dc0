// `@tau/ai/compat`, pi-ai's compatibility entry (docs/ai.md "The pi-ai compatibility entry"): the root
// entry, every built-in catalog and provider factory, and pi-ai's global API — `stream`/`complete`
// dispatching on `model.api` with environment keys, the API registry, the per-API stream functions,
// environment key lookup and image generation. The coding agent serves this module to extensions that
// import `@earendil-works/pi-ai`, so they keep working while `@tau/ai` itself stays catalog-free.

export {
	ANTHROPIC_API_KEY_ENV,
	ANTHROPIC_AUTH_TOKEN_ENV,
	ANTHROPIC_FEDERATION_RULE_ID_ENV,
	ANTHROPIC_IDENTITY_TOKEN_FILE_ENV,
	ANTHROPIC_OAUTH_TOKEN_ENV,
	ANTHROPIC_ORGANIZATION_ID_ENV,
	ANTHROPIC_SERVICE_ACCOUNT_ID_ENV,
	ANTHROPIC_WORKSPACE_ID_ENV,
	findEnvKeys,
	getEnvApiKey,
	type ProviderEnv,
} from "../auth/env-api-keys.js";
export * from "../index.js";
export * from "../providers/builtin/all.js";
export { getBuiltinProviders as getProviders } from "../providers/builtin/all.js";
export { amazonBedrockProvider } from "../providers/builtin/amazon-bedrock.js";
export * from "../providers/builtin/anthropic.js";
export { azureProvider } from "../providers/builtin/azure.js";
export { cloudflareAIGatewayProvider, cloudflareWorkersAIProvider } from "../providers/builtin/cloudflare.js";
export { githubCopilotProvider } from "../providers/builtin/github-copilot.js";
export { googleVertexProvider } from "../providers/builtin/google-vertex.js";
export {
	antLingProvider,
	basetenProvider,
	cerebrasProvider,
	deepseekProvider,
	fireworksProvider,
	googleProvider,
	groqProvider,
	hostedProvider,
	huggingfaceProvider,
	kimiCodingProvider,
	metaProvider,
	minimaxCnProvider,
	minimaxProvider,
	mistralProvider,
	moonshotaiCnProvider,
	moonshotaiProvider,
	nvidiaProvider,
	openaiProvider,
	opencodeGoProvider,
	opencodeProvider,
	openrouterProvider,
	qwenTokenPlanCnProvider,
	qwenTokenPlanIndividualCnProvider,
	qwenTokenPlanIndividualProvider,
	qwenTokenPlanProvider,
	togetherProvider,
	typesafeProvider,
	vercelAIGatewayProvider,
	xaiProvider,
	xiaomiProvider,
	xiaomiTokenPlanAmsProvider,
	xiaomiTokenPlanCnProvider,
	xiaomiTokenPlanSgpProvider,
	zaiCodingCnProvider,
	zaiProvider,
} from "../providers/builtin/hosted.js";
export * from "../providers/builtin/local.js";
export { openaiCodexProvider } from "../providers/builtin/openai-codex.js";
export { setBedrockProviderLoader, setBedrockProviderModule } from "../providers/lazy-apis/bedrock-converse-stream.js";
export { openRouterImagesApi } from "../providers/lazy-apis/openrouter-images.js";
export { piMessagesApi } from "../providers/lazy-apis/pi-messages.js";
export type { ImagesFunction, ImagesOptions, ProviderImagesOptions } from "../types/media.js";
export type { PiMessagesEvent, PiMessagesOptions, PiMessagesRewriteImpact } from "../types/pi-messages.js";
export {
	type ApiProvider,
	type ApiStreamFunction,
	type ApiStreamSimpleFunction,
	type FauxProviderRegistration,
	getApiProvider,
	getApiProviders,
	type RegisteredApiProvider,
	registerApiProvider,
	registerBuiltInApiProviders,
	registerFauxProvider,
	resetApiProviders,
	unregisterApiProviders,
} from "./api-providers.js";
export { complete, completeSimple, type ProviderStreamOptions, stream, streamSimple } from "./global-stream.js";
export {
	generateImages,
	generateImagesOpenRouter,
	getImageModel,
	getImageModels,
	getImageProviders,
	getImagesApiProvider,
	type ImagesApiProvider,
	type RegisteredImagesApiProvider,
	registerBuiltInImagesApiProviders,
	registerImagesApiProvider,
} from "./images.js";
export {
	streamAnthropic,
	streamAzureOpenAIResponses,
	streamGoogle,
	streamGoogleVertex,
	streamMistral,
	streamOpenAICodexResponses,
	streamOpenAICompletions,
	streamOpenAIResponses,
	streamSimpleAnthropic,
	streamSimpleAzureOpenAIResponses,
	streamSimpleGoogle,
	streamSimpleGoogleVertex,
	streamSimpleMistral,
	streamSimpleOpenAICodexResponses,
	streamSimpleOpenAICompletions,
	streamSimpleOpenAIResponses,
} from "./legacy-api-aliases.js";
