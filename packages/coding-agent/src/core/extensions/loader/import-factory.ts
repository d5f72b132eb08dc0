import type { ExtensionFactory } from "../api/extension-api.js";
import { getHostModules } from "./host-modules.js";

type Jiti = Awaited<ReturnType<typeof createLoader>>;

let jiti: Promise<Jiti> | undefined;

async function createLoader() {
	// jiti is loaded only when there is an extension file to import.
	const [{ createJiti }, virtualModules] = await Promise.all([import("jiti"), getHostModules()]);
	return createJiti(import.meta.url, {
		// Each import re-evaluates the module; caching happens per factory (see FactoryCache).
		moduleCache: false,
		fsCache: false,
		interopDefault: true,
		virtualModules,
	});
}

/**
 * Imports an extension file (`.ts` or `.js`) and returns its default export. Throws with the
 * module's own error on import/eval failure and a "not a valid factory" error for other exports.
 */
export async function importExtensionFactory(resolvedPath: string): Promise<ExtensionFactory> {
	jiti ??= createLoader();
	const loader = await jiti;
	const factory = await loader.import<unknown>(resolvedPath, { default: true });
	if (typeof factory !== "function") {
		throw new InvalidFactoryError(resolvedPath);
	}
	return factory as ExtensionFactory;
}

export class InvalidFactoryError extends Error {
	constructor(path: string) {
		super(`Extension does not export a valid factory function: ${path}`);
		this.name = "InvalidFactoryError";
	}
}
