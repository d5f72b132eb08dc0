export { type RpcModeOptions, runRpcMode } from "./rpc-mode.js";
export type {
	BashResult,
	CompactionResult,
	PromptDisposition,
	QueueMode,
	RpcCommand,
	RpcCommandData,
	RpcCommandType,
	RpcExtensionUIRequest,
	RpcExtensionUIResponse,
	RpcResponse,
	RpcSessionState,
	RpcSlashCommand,
	RpcThinkingLevel,
	SessionStats,
} from "./types.js";
