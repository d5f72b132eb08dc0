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
export type { HtmlExportOptions } from "./core/agent-session/session-export.js";
export * from "./core/compaction/index.js";
export * from "./core/extensions/index.js";
export * from "./core/resources/index.js";
export * from "./core/session/index.js";
export * from "./core/tools/index.js";
export { exportSessionToHtml } from "./export/html-export.js";
export { main } from "./main.js";
export { CustomEditor } from "./modes/interactive/components/custom-editor.js";
export { keyHint, keyText, rawKeyHint } from "./modes/interactive/keybindings/key-hints.js";
export { highlightCode } from "./modes/interactive/theme/active-theme.js";
export { getLanguageFromPath } from "./modes/interactive/theme/languages.js";
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
