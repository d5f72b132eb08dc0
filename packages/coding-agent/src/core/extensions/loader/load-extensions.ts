import { statSync } from "node:fs";
import { resolve } from "node:path";
import { errorMessage } from "../../errors.js";
import type { LoadExtensions } from "../../resources/loader/extension-set.js";
import { collectExtensionEntries } from "../../resources/scan/directory-scan.js";
import type { ResourceDiagnostic, SourceInfo } from "../../resources/types.js";
import type { EventBus, ExtensionFactory } from "../api/extension-api.js";
import { createExtensionAPI } from "../runtime/create-extension-api.js";
import { createExtensionRecord, type Extension } from "../runtime/extension.js";
import { createExtensionRuntime, ExtensionRuntime } from "../runtime/extension-runtime.js";
import { InvalidFactoryError, importExtensionFactory } from "./import-factory.js";

/** One extension to load: a file or directory path, or an inline/built-in factory. */
export interface ExtensionLoadItem {
	/** A file or directory path, `builtin:<name>` or `<inline:NAME>`. */
	path: string;
	sourceInfo: SourceInfo;
	factory?: (api: never) => unknown;
	hidden: boolean;
	replaceable: boolean;
}

export interface ExtensionLoadError {
	path: string;
	error: string;
}

export interface LoadExtensionsResult {
	extensions: Extension[];
	errors: ExtensionLoadError[];
	warnings?: ResourceDiagnostic[];
	runtime: ExtensionRuntime;
}

export interface ExtensionLoadRequest {
	cwd: string;
	/** Where compiled extension modules are cached (default: the process's agent dir). */
	agentDir?: string;
	items: readonly ExtensionLoadItem[];
	/** Increments on every resource reload: a new generation re-imports module source. */
	generation?: number;
	/** An earlier pass of the same load (pre-trust) whose runtime this pass shares. */
	previous?: { runtime?: unknown };
	/** The host's event bus (SDK `eventBus` option) when no runtime is shared yet. */
	eventBus?: EventBus;
}

/**
 * Factories by resolved path, for one cwd and one generation: a session replacement within the same
 * cwd re-runs cached factories (fresh instances) without re-importing; a cwd change or a new
 * generation (`/reload`) drops the cache so changed source is re-imported.
 */
class FactoryCache {
	private key = "";
	private readonly factories = new Map<string, ExtensionFactory>();

	async get(resolvedPath: string, cwd: string, generation: number, agentDir?: string): Promise<ExtensionFactory> {
		const key = `${generation}\0${cwd}`;
		if (key !== this.key) {
			this.key = key;
			this.factories.clear();
		}
		let factory = this.factories.get(resolvedPath);
		if (!factory) {
			factory = await importExtensionFactory(resolvedPath, agentDir);
			this.factories.set(resolvedPath, factory);
		}
		return factory;
	}
}

const factoryCache = new FactoryCache();

function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/** Files to import for an item path: the file itself, or a directory's entry points. */
function entryFiles(resolvedPath: string): string[] {
	return isDirectory(resolvedPath) ? collectExtensionEntries(resolvedPath) : [resolvedPath];
}

/** Applies what the factory deferred and the flag defaults it declared. */
function commit(extension: Extension, runtime: ExtensionRuntime): void {
	extension.state = "active";
	for (const flag of extension.flags.values()) {
		const fallback = flag.options.default;
		if (fallback !== undefined && !runtime.flagValues.has(flag.name)) runtime.flagValues.set(flag.name, fallback);
	}
	for (const change of extension.deferredChanges.splice(0)) {
		try {
			change.apply();
		} catch (error) {
			runtime.report(extension.path, change.event, error);
		}
	}
}

/** Discards a failed extension: nothing it registered is used and its API stops working. */
function discard(extension: Extension): void {
	extension.state = "failed";
	extension.deferredChanges.length = 0;
	for (const unsubscribe of [...extension.eventSubscriptions]) unsubscribe();
}

/** Runs one factory against a fresh extension record; the record is returned only on success. */
export async function runExtensionFactory(
	factory: ExtensionFactory,
	item: { path: string; resolvedPath?: string; sourceInfo: SourceInfo; hidden?: boolean; replaceable?: boolean },
	runtime: ExtensionRuntime,
	cwd: string,
): Promise<{ extension: Extension } | { error: ExtensionLoadError }> {
	const extension = createExtensionRecord(item);
	const api = createExtensionAPI(extension, runtime, cwd);
	try {
		await factory(api);
	} catch (error) {
		discard(extension);
		return { error: { path: item.path, error: `Failed to load extension: ${errorMessage(error)}` } };
	}
	commit(extension, runtime);
	return { extension };
}

async function loadItem(
	item: ExtensionLoadItem,
	runtime: ExtensionRuntime,
	request: ExtensionLoadRequest,
	result: LoadExtensionsResult,
): Promise<void> {
	const { cwd } = request;
	if (item.factory) {
		const outcome = await runExtensionFactory(item.factory as ExtensionFactory, item, runtime, cwd);
		if ("error" in outcome) result.errors.push(outcome.error);
		else result.extensions.push(outcome.extension);
		return;
	}
	const resolvedItem = resolve(cwd, item.path);
	const files = entryFiles(resolvedItem);
	if (files.length === 0) {
		result.errors.push({
			path: item.path,
			error: `Failed to load extension: no extension entry point in ${resolvedItem}`,
		});
		return;
	}
	// One entry file keeps the item's path (a directory is reported as itself, as Pi does); several
	// entry files are reported one by one and remember the item they came from.
	const single = files.length === 1;
	for (const file of files) {
		const path = single ? item.path : file;
		let factory: ExtensionFactory;
		try {
			factory = await factoryCache.get(file, cwd, request.generation ?? 0, request.agentDir);
		} catch (error) {
			const message =
				error instanceof InvalidFactoryError ? error.message : `Failed to load extension: ${errorMessage(error)}`;
			result.errors.push({ path, error: message });
			continue;
		}
		const outcome = await runExtensionFactory(factory, { ...item, path, resolvedPath: file }, runtime, cwd);
		if ("error" in outcome) {
			result.errors.push(outcome.error);
			continue;
		}
		if (!single) outcome.extension.itemPath = item.path;
		result.extensions.push(outcome.extension);
	}
}

/**
 * Loads extension items in order (one bad extension never stops the others). This is the loader the
 * resource layer injects for its two trust passes: the second pass shares the first pass's runtime.
 */
export async function loadExtensionItems(request: ExtensionLoadRequest): Promise<LoadExtensionsResult> {
	const shared = request.previous?.runtime;
	const runtime =
		shared instanceof ExtensionRuntime
			? shared
			: createExtensionRuntime(request.eventBus ? { eventBus: request.eventBus } : {});
	// Built-in extensions never style text; loading the theme (and its colour helpers) waits for others.
	if (!runtime.theme && request.items.some((item) => !item.path.startsWith("builtin:"))) {
		runtime.theme = (await import("../../resources/themes/builtin-theme.js")).builtinTheme();
	}
	const result: LoadExtensionsResult = { extensions: [], errors: [], runtime };
	for (const item of request.items) await loadItem(item, runtime, request, result);
	return result;
}

/**
 * `loadExtensionItems` in the resource layer's `LoadExtensions` shape: the loader a resource loader
 * uses unless its host injects another (the resource layer types the event bus loosely).
 */
export const defaultExtensionLoader: LoadExtensions = (request) => {
	const { eventBus } = request as { eventBus?: EventBus };
	return loadExtensionItems({
		cwd: request.cwd,
		agentDir: request.agentDir,
		items: request.items,
		generation: request.generation,
		...(request.previous ? { previous: request.previous } : {}),
		...(eventBus ? { eventBus } : {}),
	}) as unknown as ReturnType<LoadExtensions>;
};

/** Loads extension files or directories given as paths (relative to `cwd`), e.g. for `-e`. */
export function loadExtensions(
	paths: readonly string[],
	options: { cwd: string; agentDir?: string; eventBus?: EventBus; generation?: number },
): Promise<LoadExtensionsResult> {
	const items = paths.map(
		(path): ExtensionLoadItem => ({
			path,
			sourceInfo: { path, source: "cli", scope: "temporary", origin: "top-level" },
			hidden: false,
			replaceable: false,
		}),
	);
	return loadExtensionItems({ ...options, items });
}
