import { type ProxyEnv, proxySettings } from "./proxy-env.js";

/**
 * Routes every `fetch` of this process (provider SDKs that use the global `fetch`, logins, MCP, model
 * lists) through the proxy that `env` names, honouring `NO_PROXY`: undici's `EnvHttpProxyAgent` becomes
 * Node's global dispatcher, which Node's own `fetch` consults on every call, so clients created earlier
 * follow too. Without a proxy variable nothing is loaded and nothing changes (docs/providers.md).
 * Returns whether it installed a proxy dispatcher.
 */
export async function installProxyDispatcher(env: ProxyEnv = process.env): Promise<boolean> {
	const settings = proxySettings(env);
	if (settings.http === undefined && settings.https === undefined) return false;
	// undici is CommonJS: its exports object is the default export wherever it is loaded from (a bundle too).
	const { EnvHttpProxyAgent, setGlobalDispatcher } = (await import("undici")).default;
	// Explicit values, "" for none, so undici reads nothing from `process.env` behind `env`'s back.
	setGlobalDispatcher(
		new EnvHttpProxyAgent({
			httpProxy: settings.http ?? "",
			httpsProxy: settings.https ?? "",
			noProxy: settings.noProxy,
		}),
	);
	return true;
}
