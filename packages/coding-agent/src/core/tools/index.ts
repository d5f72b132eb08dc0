export {
	type BashToolInput,
	type BashToolOptions,
	bashSchema,
	createBashTool,
	createBashToolDefinition,
} from "./bash.js";
export { generateDiffString, generateUnifiedPatch } from "./edit/diff-strings.js";
export type { EditReplacement } from "./edit/prepare-arguments.js";
export {
	computeEditsDiff,
	createEditTool,
	createEditToolDefinition,
	type EditToolDetails,
	type EditToolInput,
	type EditToolOptions,
	editSchema,
} from "./edit.js";
export {
	createFindTool,
	createFindToolDefinition,
	FIND_FALLBACK_NOTICE,
	type FindToolDetails,
	type FindToolInput,
	type FindToolOptions,
	findSchema,
} from "./find.js";
export {
	createGrepTool,
	createGrepToolDefinition,
	GREP_FALLBACK_NOTICE,
	type GrepToolDetails,
	type GrepToolInput,
	type GrepToolOptions,
	grepSchema,
} from "./grep.js";
export {
	createLsTool,
	createLsToolDefinition,
	type LsToolDetails,
	type LsToolInput,
	type LsToolOptions,
	lsSchema,
} from "./ls.js";
export { withFileMutationQueue } from "./mutation-queue.js";
export type {
	BashExecOptions,
	BashOperations,
	EditOperations,
	FindOperations,
	GrepOperations,
	LsOperations,
	PowerShellOperations,
	ReadOperations,
	WriteOperations,
} from "./operations.js";
export { resolveReadPath, resolveToolPath } from "./path-resolution.js";
export { createPowerShellTool, createPowerShellToolDefinition, type PowerShellToolOptions } from "./powershell.js";
export {
	convertToPng,
	detectSupportedImageMimeTypeFromFile,
	formatDimensionNote,
	type ImageResizeOptions,
	type ResizedImage,
	resizeImage,
} from "./read/image-api.js";
export {
	createReadTool,
	createReadToolDefinition,
	type ModelImageResizeOptions,
	type ReadToolDetails,
	type ReadToolInput,
	type ReadToolOptions,
	readSchema,
} from "./read.js";
export {
	createSearchBinaryLocator,
	noSearchBinaries,
	type SearchBinary,
	type SearchBinaryDownloadOptions,
	type SearchBinaryLocator,
	type SearchBinaryLocatorOptions,
	type SearchBinaryLookup,
	type SearchBinaryName,
} from "./search/binaries.js";
export {
	createLocalBashOperations,
	createLocalPowerShellOperations,
	getPowerShellConfig,
	getShellConfig,
} from "./shell/local-shell.js";
export { BASH_UPDATE_THROTTLE_MS, type BashToolDetails } from "./shell/run-shell-command.js";
export type { BashSpawnContext } from "./shell/shell-tool.js";
export {
	type AnyBuiltinAgentTool,
	type AnyBuiltinToolDefinition,
	allToolNames,
	createAllToolDefinitions,
	createAllTools,
	createCodingToolDefinitions,
	createCodingTools,
	createReadOnlyToolDefinitions,
	createReadOnlyTools,
	createTool,
	createToolDefinition,
	type ToolName,
	type ToolsOptions,
} from "./tool-factories.js";
export {
	matchesToolPattern,
	parseToolsFlag,
	resolveToolSelection,
	type ToolSelection,
	type ToolSelectionInput,
	type ToolsFlagValue,
} from "./tool-selection.js";
export {
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	formatSize,
	GREP_MAX_LINE_LENGTH,
	type TruncationOptions,
	type TruncationResult,
	truncateHead,
	truncateLine,
	truncateTail,
} from "./truncate.js";
export type { BuiltinAgentTool, BuiltinToolContext, BuiltinToolDefinition } from "./types.js";
export {
	createWriteTool,
	createWriteToolDefinition,
	type WriteToolInput,
	type WriteToolOptions,
	writeSchema,
} from "./write.js";
