export { type CliThinkingLevel, type OutputMode, type ParsedArgs, parseArgs, type TuiMode } from "./cli/args.js";
export { APP_NAME, CONFIG_DIR_NAME, ENV_AGENT_DIR, ENV_SESSION_DIR, VERSION } from "./config/app-identity.js";
export { expandTilde, getAgentDir, getProjectConfigDir } from "./config/paths.js";
export { main } from "./main.js";
