import { registerPackageRoot } from "./core/extensions/loader/host-modules.js";

export {
	CODEMODE_STORE_ENTRY_TYPE,
	CODEMODE_TOOL_NAME,
	createCodemodeExtension,
	readCodemodeStore,
} from "./builtin/codemode/index.js";
export { createMcpExtension, type McpExtensionOptions } from "./builtin/mcp/mcp-extension.js";
export { Bm25Ranker, createToolSearchExtension, DEFAULT_TOOL_SEARCH_LIMIT } from "./builtin/tool-search/index.js";
export { type CliThinkingLevel, type OutputMode, type ParsedArgs, parseArgs, type TuiMode } from "./cli/args.js";
export * from "./config/index.js";
export { importPiConfig, type PiImportResult } from "./config/migrations/import-pi.js";
export { runStartupMigrations, type StartupMigrationResult } from "./config/migrations/startup-migrations.js";
export type { HtmlExportOptions } from "./core/agent-session/session-export.js";
export * from "./core/compaction/index.js";
export * from "./core/extensions/index.js";
export { copyToClipboard } from "./core/platform/clipboard.js";
export * from "./core/resources/index.js";
export { Theme } from "./core/resources/themes/theme.js";
export { loadThemeFromFile, loadThemes } from "./core/resources/themes/theme-files.js";
export * from "./core/session/index.js";
export * from "./core/tools/index.js";
export { exportSessionToHtml } from "./export/html-export.js";
export { main } from "./main.js";
export { CustomEditor } from "./modes/interactive/components/custom-editor.js";
export { type RenderDiffOptions, renderDiff } from "./modes/interactive/components/render-diff.js";
export { formatReadLineRange } from "./modes/interactive/components/tool-summary.js";
export { truncateToVisualLines, type VisualTruncateResult } from "./modes/interactive/components/visual-truncate.js";
export { InteractiveMode } from "./modes/interactive/interactive-mode.js";
export type { InteractiveModeOptions } from "./modes/interactive/interactive-options.js";
export { keyHint, keyText, rawKeyHint } from "./modes/interactive/keybindings/key-hints.js";
export {
	ArminComponent,
	AssistantMessageComponent,
	type AuthSelectorProvider,
	BashExecutionComponent,
	BorderedLoader,
	BranchSummaryMessageComponent,
	CompactionSummaryMessageComponent,
	CustomMessageComponent,
	DynamicBorder,
	ExtensionEditorComponent,
	type ExtensionEditorOptions,
	ExtensionInputComponent,
	type ExtensionInputOptions,
	ExtensionSelectorComponent,
	type ExtensionSelectorOptions,
	FooterComponent,
	LoginDialogComponent,
	ModelSelectorComponent,
	OAuthSelectorComponent,
	SessionSelectorComponent,
	type SettingsCallbacks,
	type SettingsConfig,
	SettingsSelectorComponent,
	ShowImagesSelectorComponent,
	SkillInvocationMessageComponent,
	ThemeSelectorComponent,
	ThinkingSelectorComponent,
	ToolExecutionComponent,
	type ToolExecutionOptions,
	TreeSelectorComponent,
	UserMessageComponent,
	type UserMessageItem,
	UserMessageSelectorComponent,
} from "./modes/interactive/sdk-components/index.js";
export {
	getMarkdownTheme,
	getSelectListTheme,
	getSettingsListTheme,
	highlightCode,
	initTheme,
} from "./modes/interactive/theme/active-theme.js";
export { getLanguageFromPath } from "./modes/interactive/theme/languages.js";
export { type PrintModeOptions, runPrintMode } from "./modes/print/run-print-mode.js";
export {
	type PromptDisposition,
	type QueueMode,
	type RpcCommand,
	type RpcCommandData,
	type RpcCommandType,
	type RpcExtensionUIRequest,
	type RpcExtensionUIResponse,
	type RpcModeOptions,
	type RpcResponse,
	type RpcSessionState,
	type RpcSlashCommand,
	type RpcThinkingLevel,
	runRpcMode,
	type SessionStats,
} from "./modes/rpc/index.js";
export type { JsonAgentSessionEvent, JsonAssistantMessageEvent } from "./modes/shared/index.js";
export {
	RpcClient,
	type RpcClientOptions,
	type RpcEventListener,
	type RpcExtensionUIListener,
} from "./rpc-client/index.js";
export * from "./sdk/index.js";

// Extensions importing "@tau/coding-agent" (or Pi's name for it) get this very module (docs/extensions.md).
registerPackageRoot(import.meta.url);
