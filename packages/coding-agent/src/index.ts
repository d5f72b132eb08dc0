export { type CliThinkingLevel, type OutputMode, type ParsedArgs, parseArgs, type TuiMode } from "./cli/args.js";
export * from "./config/index.js";
export { main } from "./main.js";
export * from "./core/session/index.js";
export * from "./core/tools/index.js";
export * from "./core/compaction/index.js";
export * from "./core/resources/index.js";
export * from "./core/extensions/index.js";
export * from "./sdk/index.js";
