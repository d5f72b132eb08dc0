export { toCodemodeIdentifier } from "./declarations/identifier.js";
export {
	DEFAULT_MAX_STACK_BYTES,
	DEFAULT_TIMEOUT_MS,
	MAX_OUTPUT_CHARS,
	MAX_OUTPUT_ITEMS,
	MAX_STORE_TOTAL_CHARS,
	MAX_STORE_VALUE_CHARS,
} from "./limits.js";
export type { VmChannel, VmEvents, VmLauncher, VmStartData } from "./protocol.js";
export { CodemodeSandbox } from "./sandbox.js";
export type {
	CodemodeCall,
	CodemodeCallContext,
	CodemodeError,
	CodemodeExecuteOptions,
	CodemodeOutputItem,
	CodemodeResult,
	CodemodeSandboxOptions,
	CodemodeStoreWrites,
	CodemodeTool,
	JsonSchema,
} from "./types.js";
