import { ENV_AGENT_DIR, ENV_SESSION_DIR, envName } from "./app-identity.js";

/** `1`, `true` or `yes` (case-insensitive). */
export function isTruthyEnvFlag(value: string | undefined): boolean {
	return value !== undefined && ["1", "true", "yes"].includes(value.trim().toLowerCase());
}

/** `0`, `false` or `no` (case-insensitive). */
export function isFalsyEnvFlag(value: string | undefined): boolean {
	return value !== undefined && ["0", "false", "no"].includes(value.trim().toLowerCase());
}

/** Every `TAU_*` variable tau reads or sets, derived from the app name so a rebrand is one edit. */
export const ENV = {
	agentDir: ENV_AGENT_DIR,
	sessionDir: ENV_SESSION_DIR,
	packageDir: envName("PACKAGE_DIR"),
	offline: envName("OFFLINE"),
	skipVersionCheck: envName("SKIP_VERSION_CHECK"),
	selfUpdateCommand: envName("SELF_UPDATE_COMMAND"),
	telemetry: envName("TELEMETRY"),
	codemodeMaxWorkers: envName("CODEMODE_MAX_WORKERS"),
	cacheRetention: envName("CACHE_RETENTION"),
	shareViewerUrl: envName("SHARE_VIEWER_URL"),
	radiusGateway: envName("RADIUS_GATEWAY"),
	clearOnShrink: envName("CLEAR_ON_SHRINK"),
	hardwareCursor: envName("HARDWARE_CURSOR"),
	clipboardOsc52: envName("CLIPBOARD_OSC52"),
	hyperlinks: envName("HYPERLINKS"),
	programStatus: envName("PROGRAM_STATUS"),
	imageProtocol: envName("IMAGE_PROTOCOL"),
	trueColor: envName("TRUE_COLOR"),
	tuiEscTimeout: envName("TUI_ESC_TIMEOUT"),
	startupBenchmark: envName("STARTUP_BENCHMARK"),
	// Set by tau for child processes.
	codingAgent: envName("CODING_AGENT"),
	sessionId: envName("SESSION_ID"),
	sessionFile: envName("SESSION_FILE"),
	provider: envName("PROVIDER"),
	model: envName("MODEL"),
	reasoningLevel: envName("REASONING_LEVEL"),
} as const;

/** Pi's agent dir variable: read only to locate Pi's files for imports, never as tau's own. */
export const PI_AGENT_DIR_ENV = "PI_CODING_AGENT_DIR";

/** `TAU_OFFLINE` truthy: no automatic network activity. The truthy parse is used everywhere. */
export function isOffline(env: NodeJS.ProcessEnv = process.env): boolean {
	return isTruthyEnvFlag(env[ENV.offline]);
}

export function shouldSkipVersionCheck(env: NodeJS.ProcessEnv = process.env): boolean {
	return isOffline(env) || isTruthyEnvFlag(env[ENV.skipVersionCheck]);
}

/** What `--offline` does for the rest of the process. */
export function applyOfflineFlag(env: NodeJS.ProcessEnv = process.env): void {
	env[ENV.offline] = "1";
	env[ENV.skipVersionCheck] = "1";
}

/** `TAU_TELEMETRY` as an explicit override, or undefined when unset or unrecognized. */
export function telemetryOverride(env: NodeJS.ProcessEnv = process.env): boolean | undefined {
	const value = env[ENV.telemetry];
	if (isTruthyEnvFlag(value)) return true;
	if (isFalsyEnvFlag(value)) return false;
	return undefined;
}

/** Fills `HTTP_PROXY`/`HTTPS_PROXY` from the `httpProxy` setting only where they are unset. */
export function applyHttpProxySetting(proxy: string | undefined, env: NodeJS.ProcessEnv = process.env): void {
	if (!proxy) return;
	env.HTTP_PROXY ||= proxy;
	env.HTTPS_PROXY ||= proxy;
}

/** The session variables given to LLM-callable shell tools. */
export interface SessionEnvironment {
	sessionId?: string;
	sessionFile?: string;
	provider?: string;
	model?: string;
	reasoningLevel?: string;
}

const SESSION_VARIABLES = [ENV.sessionId, ENV.sessionFile, ENV.provider, ENV.model, ENV.reasoningLevel];

/**
 * The environment for a shell tool command: the session variables when exposure is on; otherwise
 * they are removed, so a nested tau never sees stale values of its parent.
 */
export function shellToolEnvironment(
	base: NodeJS.ProcessEnv,
	session: SessionEnvironment | undefined,
): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...base, [ENV.codingAgent]: "true" };
	for (const name of SESSION_VARIABLES) delete env[name];
	if (!session) return env;
	const values: [string, string | undefined][] = [
		[ENV.sessionId, session.sessionId],
		[ENV.sessionFile, session.sessionFile],
		[ENV.provider, session.provider],
		[ENV.model, session.model],
		[ENV.reasoningLevel, session.reasoningLevel],
	];
	for (const [name, value] of values) if (value !== undefined) env[name] = value;
	return env;
}
