export {
	APP_NAME,
	CONFIG_DIR_NAME,
	ENV_AGENT_DIR,
	ENV_PREFIX,
	ENV_SESSION_DIR,
	envName,
	PACKAGE_DIR,
	PACKAGE_NAME,
	VERSION,
} from "./app-identity.js";
export { expandTilde, getAgentDir, getProjectConfigDir } from "./paths.js";
export * from "./settings/index.js";
