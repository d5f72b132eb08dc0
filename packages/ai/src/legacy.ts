// `@tau/ai/legacy` (also `@tau/ai/compat`): the root entry plus every built-in catalog and provider
// factory and pi's per-API stream functions, in one namespace. Pi extensions import catalog reads such as
// `getModel` from pi-ai's root; the coding agent serves them this module so they keep working while
// `@tau/ai` stays catalog-free.
export * from "./index.js";
export * from "./providers/builtin/all.js";
export { amazonBedrockProvider } from "./providers/builtin/amazon-bedrock.js";
export * from "./providers/builtin/anthropic.js";
export { azureProvider } from "./providers/builtin/azure.js";
export { cloudflareAIGatewayProvider, cloudflareWorkersAIProvider } from "./providers/builtin/cloudflare.js";
export { githubCopilotProvider } from "./providers/builtin/github-copilot.js";
export { googleVertexProvider } from "./providers/builtin/google-vertex.js";
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
	radiusProvider,
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
} from "./providers/builtin/hosted.js";
export * from "./providers/builtin/local.js";
export { openaiCodexProvider } from "./providers/builtin/openai-codex.js";
export { setBedrockProviderLoader, setBedrockProviderModule } from "./providers/lazy-apis/bedrock-converse-stream.js";
export {
	streamAzureOpenAIResponses,
	streamGoogle,
	streamGoogleVertex,
	streamMistral,
	streamOpenAICodexResponses,
	streamSimpleAzureOpenAIResponses,
	streamSimpleGoogle,
	streamSimpleGoogleVertex,
	streamSimpleMistral,
	streamSimpleOpenAICodexResponses,
} from "./providers/legacy-api-aliases.js";
