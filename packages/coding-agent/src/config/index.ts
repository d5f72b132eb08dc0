export {
	APP_NAME,
	CONFIG_DIR_NAME,
	ENV_AGENT_DIR,
	ENV_PREFIX,
	ENV_SESSION_DIR,
	envName,
	getDocsPath,
	getExamplesPath,
	getPackageDir,
	getReadmePath,
	PACKAGE_DIR,
	PACKAGE_NAME,
	VERSION,
} from "./app-identity.js";
export { type AuthFile, parseAuthFile } from "./auth/auth-file.js";
export {
	type AuthDiagnostic,
	AuthStorage,
	checkAuthFilePermissions,
	ReadOnlyAuthStorage,
	readStoredCredential,
} from "./auth/auth-storage.js";
export {
	type AuthLockOptions,
	type AuthStorageBackend,
	FileAuthStorageBackend,
	InMemoryAuthStorageBackend,
} from "./auth/backend.js";
export { RuntimeCredentials } from "./auth/runtime-credentials.js";
export {
	COMMAND_TIMEOUT_MS,
	type ConfigValueReference,
	type EnvOverlay,
	escapeConfigValue,
	parseConfigValue,
	resolveConfigValue,
	resolveConfigValueOrThrow,
	resolveConfigValueUncached,
	resolveHeaders,
	resolveHeadersOrThrow,
} from "./auth/value-reference.js";
export {
	applyHttpProxySetting,
	applyOfflineFlag,
	ENV,
	isFalsyEnvFlag,
	isOffline,
	isTruthyEnvFlag,
	PI_AGENT_DIR_ENV,
	type SessionEnvironment,
	shellToolEnvironment,
	shouldSkipVersionCheck,
	telemetryOverride,
} from "./env.js";
export { type CliModelInput, type CliModelSelection, resolveCliModel } from "./model-resolver/cli-model.js";
export { DEFAULT_MODEL_PER_PROVIDER, defaultModelIdFor } from "./model-resolver/default-models.js";
export { isGlobPattern, modelPatternToRegExp } from "./model-resolver/glob.js";
export {
	type InitialModelInput,
	type InitialModelSelection,
	selectInitialModel,
} from "./model-resolver/initial-model.js";
export {
	findExactModelReferenceMatch,
	isThinkingLevel,
	MODEL_THINKING_LEVEL_NAMES,
	type ModelReferenceOptions,
	type ModelReferenceResult,
	resolveModelReference,
	splitProviderPrefix,
	type ThinkingSuffixMode,
} from "./model-resolver/model-reference.js";
export {
	addSavedModelToScope,
	type ModelScope,
	type ModelScopeDiagnostic,
	parseModelPatterns,
	type ResolveModelScopeResult,
	resolveModelScope,
	resolveModelScopeWithDiagnostics,
	type ScopedModel,
} from "./model-resolver/model-scope.js";
export { discoverServedModel } from "./model-resolver/served-models.js";
export {
	clampToModel,
	DEFAULT_THINKING_LEVEL,
	type InitialThinking,
	type InitialThinkingInput,
	nextThinkingLevel,
	parseCliThinkingLevel,
	resolveInitialThinkingLevel,
	type ThinkingSettings,
	thinkingLevelForModelSwitch,
} from "./model-resolver/thinking-level.js";
export type { CreateModelRuntimeOptions, ModelRuntimeOptions } from "./model-runtime/create-options.js";
export {
	CredentialSynchronizationError,
	type CredentialSynchronizationOperation,
} from "./model-runtime/credential-sync-error.js";
export { ModelRegistry, type ResolvedRequestAuth } from "./model-runtime/model-registry.js";
export { type AuthStatus, ModelRuntime, type ProviderRegistration } from "./model-runtime/model-runtime.js";
export { FileModelsStore } from "./model-runtime/models-store.js";
export {
	createVirtualModel,
	isVirtualModel,
	type ModelRoute,
	type ModelRouteReason,
	type ModelRouteRequest,
	VIRTUAL_MODEL_API,
	type VirtualModelDefinition,
} from "./model-runtime/virtual-models.js";
export { type BaseProvider, type ComposedProvider, composeProvider } from "./models-json/compose.js";
export { mergeHeaders } from "./models-json/headers.js";
export { applyModelOverride, mergeCompat } from "./models-json/model-overrides.js";
export { loadModelsJson, type ModelsJsonLoad, parseModelsJson, stripJsonComments } from "./models-json/parse.js";
export {
	type ModelDefinition,
	ModelDefinitionSchema,
	type ModelOverride,
	ModelOverrideSchema,
	type ModelsJson,
	ModelsJsonSchema,
	type ProviderConfig,
	ProviderConfigSchema,
} from "./models-json/schema.js";
export { expandTilde, getAgentDir, getProjectConfigDir } from "./paths.js";
export * from "./settings/index.js";
export {
	applyTrustChoice,
	type ExtensionTrustAnswer,
	type ProjectTrustDecision,
	type ProjectTrustInput,
	resolveProjectTrusted,
	type TrustPromptChoice,
	trustPromptOptions,
} from "./trust/trust-decision.js";
export {
	ProjectTrustStore,
	type SavedTrustDecision,
	type TrustFile,
	type TrustStoreOptions,
	type TrustUpdate,
	type TrustValue,
} from "./trust/trust-store.js";
