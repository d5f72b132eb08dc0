// Data model

export { defaultProviderAuthContext } from "./auth/auth-context.js";
export { envApiKeyAuth, keylessAuth, type LazyOAuthOptions, lazyOAuth } from "./auth/auth-helpers.js";
export { InMemoryCredentialStore } from "./auth/memory-credential-store.js";
export { refreshStoredOAuthCredential } from "./auth/oauth-refresh.js";
export { checkProviderAuth, resolveProviderAuth } from "./auth/resolve-provider-auth.js";
// Faux provider
export {
	type FauxAssistantMessageOptions,
	type FauxContentBlock,
	fauxAssistantMessage,
	fauxText,
	fauxThinking,
	fauxToolCall,
} from "./faux/faux-content.js";
export {
	createFauxCore,
	type FauxCore,
	type FauxModelDefinition,
	type FauxProviderOptions,
	type FauxProviderState,
	type FauxResponseFactory,
	type FauxResponseStep,
	type RegisterFauxProviderOptions,
} from "./faux/faux-core.js";
export { type FauxProviderHandle, fauxProvider } from "./faux/faux-provider.js";
export {
	formatUserAgent,
	getAttributionHeaders,
	getClientVersion,
	getIdentityHeaders,
	getOpenCodeSessionHeaders,
	mergeClientIdentity,
	PI_ATTRIBUTION,
	TAU_ATTRIBUTION,
} from "./identity/client-identity.js";
export { type JsonChange, type JsonPath, StreamingJsonParser } from "./json/streaming-json-parser.js";
export {
	parseJsonWithRepair,
	parseStreamingJson,
	parseToolCallArguments,
	repairJson,
	ToolCallArgumentsStream,
} from "./json/tool-call-arguments.js";
// Catalog validation (the catalogs themselves live under @tau/ai/providers/*)
export { type CatalogFile, catalogModels, catalogViews, validateCatalog } from "./models/catalog.js";
export { InMemoryModelsStore } from "./models/memory-models-store.js";
export { getModelType, hasApi, isModelType, modelsAreEqual } from "./models/model-helpers.js";
// Models, providers, auth
export { createModels } from "./models/models-collection.js";
export { ModelsError, type ModelsErrorCode } from "./models/models-error.js";
export { withClientIdentity } from "./models/with-client-identity.js";
// Networks: HTTP(S) proxies (docs/providers.md)
export { installProxyDispatcher } from "./network/proxy-dispatcher.js";
export { type ProxyEnv, proxyForUrl } from "./network/proxy-env.js";
export { apiByModel, builtinApi } from "./providers/api-registry.js";
export { createProvider } from "./providers/create-provider.js";
export { type LazyApiCapabilities, lazyApi } from "./providers/lazy-api.js";
export { anthropicMessagesApi } from "./providers/lazy-apis/anthropic-messages.js";
export { azureOpenAIResponsesApi } from "./providers/lazy-apis/azure-openai-responses.js";
export { bedrockConverseStreamApi } from "./providers/lazy-apis/bedrock-converse-stream.js";
export { googleGenerativeAIApi } from "./providers/lazy-apis/google-generative-ai.js";
export { googleVertexApi } from "./providers/lazy-apis/google-vertex.js";
export { mistralConversationsApi } from "./providers/lazy-apis/mistral-conversations.js";
export { openAICodexResponsesApi } from "./providers/lazy-apis/openai-codex-responses.js";
export { openAICompletionsApi } from "./providers/lazy-apis/openai-completions.js";
export { openAIResponsesApi } from "./providers/lazy-apis/openai-responses.js";
export {
	DEFAULT_MAX_AGENT_RETRY_DELAY_MS,
	type RetryCallbacks,
	type RetryPolicy,
	retryAssistantCall,
	retryDelayMs,
} from "./retry/agent-retry.js";
export { getOverflowPatterns, isContextOverflow, isRecoverableLength } from "./retry/context-overflow.js";
export { type ProviderRequestRetryOptions, retryProviderRequest } from "./retry/provider-request-retry.js";
// Retry and overflow classification
export { isRetryableAssistantError } from "./retry/retryable-error.js";
export {
	AssistantMessageEventStream,
	createAssistantMessageEventStream,
} from "./stream/assistant-message-event-stream.js";
// Event streams
export { type EventSink, EventStream } from "./stream/event-stream.js";
export { type LazyStreamObserver, lazyStream } from "./stream/lazy-stream.js";
export { createInitialSystemMessage, normalizeContext } from "./system-messages/normalize-context.js";
// System messages and transcript replay
export { getSystemMessageText, renderSystemMessageUpdate } from "./system-messages/render.js";
export {
	collapseSystemMessages,
	getCurrentSystemMessage,
	getCurrentSystemPrompt,
	getCurrentTools,
	getInitialSystemMessage,
	resolveTranscript,
	withoutInitialSystemMessage,
} from "./system-messages/replay.js";
export {
	declarationsEqual,
	getDeclaredTools,
	getToolStateChanges,
	hasNonAdditiveToolChanges,
	hasToolRedefinitions,
	resolveTranscriptTools,
	type TranscriptToolSupport,
	toToolDeclaration,
} from "./system-messages/tool-declarations.js";
export {
	adjustMaxTokensForThinking,
	DEFAULT_THINKING_BUDGETS,
	MIN_ANSWER_TOKENS,
	thinkingBudgetFor,
} from "./thinking/budgets.js";
// Thinking levels, budgets, output budget
export { clampThinkingLevel, getSupportedThinkingLevels } from "./thinking/levels.js";
export { resolveSamplingParams } from "./thinking/sampling.js";
// Tool validation
export { coerceToSchema } from "./tools/coerce.js";
export { preloadSchemaValidator } from "./tools/schema-check.js";
// Tools and streaming JSON
export {
	makeStrictJsonSchema,
	resolveJsonSchemaStrictSampling,
	StrictSchemaUnsupportedError,
	StringEnum,
	type UnsupportedKeywordCheck,
} from "./tools/strict-schema.js";
export { validateToolArguments, validateToolCall } from "./tools/validate.js";
export { type ToolCallIdNormalizer, transformMessages } from "./transcript/transform-messages.js";
export type {
	AnthropicOptions,
	ApiOptionsMap,
	ApiStreamOptions,
	AzureEndpointOptions,
	AzureOpenAIResponsesOptions,
	BedrockOptions,
	GoogleApiThinkingLevel,
	GoogleOptions,
	GoogleVertexOptions,
	MistralOptions,
	OpenAICodexResponsesOptions,
	OpenAICompletionsOptions,
	OpenAIResponsesOptions,
	OpenAIToolChoice,
	ReasoningEffort,
} from "./types/api-options.js";
export type {
	ApiKeyAuth,
	ApiKeyAuthInput,
	ApiKeyCredential,
	AuthCheck,
	AuthContext,
	AuthInteraction,
	AuthNotification,
	AuthPrompt,
	AuthResolutionOverrides,
	AuthResult,
	Credential,
	CredentialInfo,
	CredentialStore,
	CredentialStoreOptions,
	LoginOptions,
	ModelAuth,
	OAuthAuth,
	OAuthCredential,
	OAuthCredentials,
	ProviderAuth,
} from "./types/auth.js";
export type {
	AnthropicAllowedFallbackModel,
	AnthropicMessagesCompat,
	ApiCompat,
	ApiCompatMap,
	BedrockCompat,
	ChatTemplateKwarg,
	MidConvoSystemMessageCompat,
	MistralConversationsCompat,
	OpenAICompletionsCompat,
	OpenAICompletionsThinkingFormat,
	OpenAIResponsesCompat,
	SessionAffinityFormat,
} from "./types/compat.js";
export type { ImageContent, TextContent, TextSignatureV1, ThinkingContent, ToolCall } from "./types/content.js";
export type { Context, TranscriptContext } from "./types/context.js";
export type { AssistantMessageEvent, AssistantMessageEventType } from "./types/events.js";
export type {
	OAuthAuthInfo,
	OAuthDeviceCodeInfo,
	OAuthLoginCallbacks,
	OAuthPrompt,
	OAuthSelectOption,
	OAuthSelectPrompt,
} from "./types/extension-oauth.js";
export type { ClientAttribution, ClientIdentity, ClientIdentityTarget, UserAgentMode } from "./types/identity.js";
export type { JsonObject, JsonRepresentation, JsonValue } from "./types/json.js";
export type {
	AssistantImages,
	ClassifierAnswer,
	ClassifierContext,
	ClassifierQuestion,
	ClassifierResult,
	ImagesContext,
	MediaRequestOptions,
} from "./types/media.js";
export type {
	AssistantMessage,
	AssistantMessageDiagnostic,
	DeferredHandle,
	DiagnosticErrorInfo,
	Message,
	NestedToolCallRecord,
	NestedToolCalls,
	StopReason,
	SystemMessage,
	ToolResultMessage,
	UserMessage,
} from "./types/messages.js";
export type {
	AnyModel,
	Api,
	BaseModel,
	ClassifierApi,
	ClassifierModel,
	ImageApi,
	ImageModel,
	KnownApi,
	KnownProvider,
	Model,
	ModelCost,
	ModelCostTier,
	ModelInputLimits,
	ModelType,
	ModelTypeMap,
	ProviderId,
} from "./types/model.js";
export type {
	ProviderRequestOptions,
	ProviderResponseInfo,
	SimpleStreamOptions,
	StreamOptions,
	Transport,
} from "./types/options.js";
export type {
	AvailabilityOptions,
	CreateModelsOptions,
	CreateProviderOptions,
	DeferredRequestOptions,
	Models,
	ModelsPublication,
	ModelsRefreshOptions,
	ModelsRefreshResult,
	ModelsRequestTransforms,
	ModelsStore,
	ModelsStoreEntry,
	MutableModels,
	Provider,
	ProviderClassifier,
	ProviderImages,
	ProviderStreams,
	RefreshModelsContext,
	StreamFunction,
} from "./types/provider.js";
export {
	CACHE_RETENTIONS,
	type CacheRetention,
	MODEL_THINKING_LEVELS,
	type ModelThinkingLevel,
	THINKING_LEVELS,
	type ThinkingBudgets,
	type ThinkingLevel,
	type ThinkingLevelMap,
} from "./types/thinking.js";
export type { ConstrainedSamplingConfig, Tool, ToolChoice, ToolReference } from "./types/tools.js";
export { type Usage, type UsageCost, zeroUsage } from "./types/usage.js";
// Usage, cost, retry
export { addUsage } from "./usage/add-usage.js";
export {
	CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY,
	CACHE_WARMING_MAX_AGE_MS,
	CACHE_WARMING_MAX_IDLE_AGE_MS,
	CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS,
	type CacheWarmingAction,
	type CacheWarmingDecision,
	type CacheWarmingPhase,
	evaluateCacheWarming,
	getCacheWarmingDelayMs,
	getCacheWarmingRequestOptions,
	getPromptCacheTtlMs,
	isCacheWarmingReplayable,
} from "./usage/cache-warming.js";
export { calculateContextTokens, calculateCost } from "./usage/cost.js";
export {
	type ContextTokenEstimate,
	clampMaxTokensToContext,
	estimateContextTokens,
	estimateMessageTokens,
	estimateTextTokens,
} from "./usage/token-estimate.js";
// Utilities
export { contentText } from "./utils/content-text.js";
export {
	appendAssistantMessageDiagnostic,
	createAssistantMessageDiagnostic,
	extractDiagnosticError,
	formatThrownValue,
} from "./utils/diagnostics.js";
export { type HeaderLayer, mergeHeaders, resolveHeaders } from "./utils/headers.js";
export { sanitizeSurrogates } from "./utils/sanitize-surrogates.js";
export { cleanupSessionResources, registerSessionResourceCleanup } from "./utils/session-resources.js";
// Small utilities
export { uuidv7 } from "./utils/uuidv7.js";
export { PI_AI_VERSION, TAU_AI_VERSION } from "./version.js";
