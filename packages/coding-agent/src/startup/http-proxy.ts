import { installProxyDispatcher } from "@tau/ai";
import { applyHttpProxySetting, getAgentDir, SettingsManager } from "../config/index.js";

/**
 * Routes the process's requests through the proxy the environment names, the `httpProxy` setting
 * filling `HTTP_PROXY`/`HTTPS_PROXY` where they are unset (docs/providers.md). Without either nothing
 * is loaded, so a start without a proxy pays nothing.
 */
export async function useHttpProxy(settingProxy: string | undefined): Promise<void> {
	applyHttpProxySetting(settingProxy);
	await installProxyDispatcher();
}

/** `useHttpProxy` for subcommands, which have no settings of their own loaded. */
export async function useConfiguredHttpProxy(): Promise<void> {
	const agentDir = getAgentDir();
	// `httpProxy` is read from the global settings only, so the project directory plays no part.
	await useHttpProxy(SettingsManager.create(agentDir, agentDir, { projectTrusted: false }).getHttpProxy());
}
