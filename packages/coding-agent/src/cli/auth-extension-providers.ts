import type { ModelRuntime } from "../config/index.js";

/**
 * Loads the user's extensions (global, and the project's when trusted) and registers the providers they
 * define, so `tau auth` can sign in to a provider an extension brings with its own `oauth` login
 * (docs/extensions.md). Only called for a provider name that is not otherwise known: loading
 * extensions costs time the other commands should not pay.
 */
export async function registerExtensionProviders(runtime: ModelRuntime, agentDir: string): Promise<void> {
	const [{ DefaultResourceLoader }, { defaultExtensionLoader }, { flushProviderRegistrations }] = await Promise.all([
		import("../core/resources/index.js"),
		import("../core/extensions/index.js"),
		import("../sdk/create-agent-session.js"),
	]);
	const loader = new DefaultResourceLoader({
		cwd: process.cwd(),
		agentDir,
		loadExtensions: defaultExtensionLoader,
		noSkills: true,
		noPromptTemplates: true,
		noThemes: true,
		noContextFiles: true,
	});
	await loader.reload();
	flushProviderRegistrations(loader, runtime);
}
