import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Jiti, TransformOptions, TransformResult } from "jiti";
import { VERSION } from "../../../config/app-identity.js";
import { getAgentDir } from "../../../config/paths.js";
import type { ExtensionFactory } from "../api/extension-api.js";
import { CompileCache } from "./compile-cache.js";
import { getHostModules } from "./host-modules.js";

/** One jiti per cache directory (a process normally uses one agent dir). */
const loaders = new Map<string, Promise<Jiti>>();

/** The compile cache of an agent dir: `<agentDir>/cache/extensions/<tau version>/`. */
export function extensionCompileCacheDir(agentDir: string): string {
	return join(agentDir, "cache", "extensions");
}

function jitiVersion(): string {
	const manifest = createRequire(import.meta.url).resolve("jiti/package.json");
	return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}

/**
 * jiti's own transform (TypeScript and ESM to what jiti evaluates) behind the on-disk cache: a
 * warm start reads each compiled module instead of running Babel over it again.
 */
function cachedTransform(compiler: Jiti, cache: CompileCache): (options: TransformOptions) => TransformResult {
	const compilerVersion = `jiti ${jitiVersion()}`;
	return (options) => {
		const { source, ...settings } = options;
		const key = CompileCache.key([compilerVersion, JSON.stringify(settings), source]);
		const cached = cache.read(key);
		if (cached !== undefined) return { code: cached };
		const code = compiler.transform(options);
		// A syntax error compiles to a module that throws it; never cache that.
		if (!code.includes("__JITI_ERROR__")) cache.write(key, code);
		return { code };
	};
}

async function createLoader(cacheRoot: string): Promise<Jiti> {
	// jiti is loaded only when there is an extension file to import.
	const [{ createJiti }, virtualModules] = await Promise.all([import("jiti"), getHostModules()]);
	const compiler = createJiti(import.meta.url, { fsCache: false, moduleCache: false });
	return createJiti(import.meta.url, {
		// Each import re-evaluates the module; caching happens per factory (see FactoryCache).
		moduleCache: false,
		// jiti's own file cache is replaced by the atomic, versioned one of `cachedTransform`.
		fsCache: false,
		interopDefault: true,
		virtualModules,
		transform: cachedTransform(compiler, new CompileCache(cacheRoot, VERSION)),
	});
}

/**
 * Imports an extension file (`.ts` or `.js`) and returns its default export. Throws with the
 * module's own error on import/eval failure and a "not a valid factory" error for other exports.
 * Compiled modules are cached under `agentDir` (default: the process's agent dir).
 */
export async function importExtensionFactory(
	resolvedPath: string,
	agentDir = getAgentDir(),
): Promise<ExtensionFactory> {
	const cacheRoot = extensionCompileCacheDir(agentDir);
	let loader = loaders.get(cacheRoot);
	if (!loader) {
		loader = createLoader(cacheRoot);
		loaders.set(cacheRoot, loader);
	}
	const factory = await (await loader).import<unknown>(resolvedPath, { default: true });
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
