export type * from "./api/context.js";
export type * from "./api/events.js";
export type * from "./api/extension-api.js";
export type * from "./api/session-events.js";
export {
	type AnyToolDefinition,
	defineTool,
	type ExtensionToolContext,
	isBashToolResult,
	isEditToolResult,
	isFindToolResult,
	isGrepToolResult,
	isLsToolResult,
	isPowerShellToolResult,
	isReadToolResult,
	isToolCallEventType,
	isWriteToolResult,
	type ToolAnnotations,
	type ToolDefinition,
	type ToolExposure,
	type ToolInfo,
	type ToolLoadout,
	type ToolLoadoutChanges,
	type ToolNamespace,
	type ToolRenderContext,
	type ToolRendererResolver,
	type ToolRenderers,
} from "./api/tool-definition.js";
export type { ExtensionCommandContextActions, ExtensionContextActions } from "./context/context-actions.js";
export { createNoOpUIContext } from "./context/no-op-ui.js";
export { discoverAndLoadExtensions } from "./loader/discover-extensions.js";
export { HOST_MODULE_SPECIFIERS } from "./loader/host-modules.js";
export {
	defaultExtensionLoader,
	type LoadExtensionsResult as ExtensionSetLoadResult,
	loadExtensionItems,
	loadExtensions,
	runExtensionFactory,
} from "./loader/load-extensions.js";
export { ExclusiveQueue } from "./nested-calls/exclusive-queue.js";
export {
	NESTED_CALL_LIMITS,
	type NestedToolCallRecord,
	type NestedToolCalls,
} from "./nested-calls/nested-call-record.js";
export {
	NESTED_CALLS_UNAVAILABLE,
	type NestedCallHost,
	NestedToolCallExecutor,
	NO_ASSISTANT_MESSAGE,
	nestedErrorOutcome,
} from "./nested-calls/nested-tool-calls.js";
export { type ResolvedCommand, resolveCommands } from "./registry/commands.js";
export { activatesOnRegistration, isCallable, isDeclarable, nextActiveTools } from "./registry/exposure.js";
export { applyExtensionFlagValues } from "./registry/flags.js";
export { collectLoadoutChanges, type LoadoutChanges } from "./registry/loadout.js";
export {
	findEntryRenderer,
	findMessageRenderer,
	inheritRenderers,
	resolveToolRenderers,
	transformMarkdown,
} from "./registry/renderers.js";
export { RESERVED_KEYBINDING_ACTIONS, type ResolvedShortcuts, resolveShortcuts } from "./registry/shortcuts.js";
export {
	exposureOf,
	normalizePromptGuidelines,
	normalizePromptSnippet,
	resolveExtensionTools,
	toAgentTool as extensionToolToAgentTool,
	wrapRegisteredTool,
	wrapRegisteredTools,
} from "./registry/tools.js";
export type { BeforeAgentStartInput, BeforeAgentStartOutcome } from "./runner/dispatch/before-agent-start.js";
export type { BoundaryProposal } from "./runner/dispatch/boundary.js";
export {
	askExtensionsForProjectTrust,
	emitProjectTrustEvent,
	headlessProjectTrustContext,
	type ProjectTrustDispatchResult,
} from "./runner/dispatch/project-trust.js";
export { DEFAULT_BLOCK_REASON, type ToolCallDecision } from "./runner/dispatch/tool-call.js";
export type { UserBashDecision } from "./runner/dispatch/user-bash.js";
export { ExtensionRunner, type ExtensionRunnerOptions } from "./runner/extension-runner.js";
export { createExtensionAPI } from "./runtime/create-extension-api.js";
export {
	type ExtensionError,
	failedExtensionMessage,
	NOT_INITIALIZED_MESSAGE,
	STALE_CONTEXT_MESSAGE,
} from "./runtime/errors.js";
export { createEventBus } from "./runtime/event-bus.js";
export { EXEC_KILL_GRACE_MS, execCommand } from "./runtime/exec.js";
export type {
	Extension,
	RegisteredCommand,
	RegisteredFlag,
	RegisteredShortcut,
	RegisteredTool,
} from "./runtime/extension.js";
export {
	createExtensionRuntime,
	type ExtensionCoreActions,
	type ExtensionProviderActions,
	ExtensionRuntime,
} from "./runtime/extension-runtime.js";
