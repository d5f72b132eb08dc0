import { APP_NAME } from "../../../config/app-identity.js";
import type { ExtensionAPI } from "../../extensions/api/extension-api.js";
import { createSyntheticSourceInfo, type ResourceDiagnostic, type SourceInfo } from "../types.js";
import { pathKey } from "./path-key.js";

/** An extension factory as the loader stores it: it receives the `pi` API (docs/extensions.md). */
export type ExtensionFactoryLike = (pi: ExtensionAPI) => unknown;

/** An SDK inline extension, or the code behind a `builtin:<name>` resource when `builtin` is set. */
export type InlineExtension =
	| ExtensionFactoryLike
	| {
			name: string;
			factory: ExtensionFactoryLike;
			hidden?: boolean;
			replaceable?: boolean;
			builtin?: boolean;
	  };

/** One extension to load: a file, a built-in or an inline factory, with where it came from. */
export interface ExtensionLoadItem {
	/** A file path, `builtin:<name>` or `<inline:NAME>` / `<inline:N>`. */
	path: string;
	sourceInfo: SourceInfo;
	/** The factory of an inline or built-in extension (files are imported by the loader). */
	factory?: ExtensionFactoryLike;
	hidden: boolean;
	replaceable: boolean;
}

/** What the extension loader reports for one successfully loaded extension. */
export interface LoadedExtension {
	/** The path of the `ExtensionLoadItem` it was loaded from, or one entry file of a directory item. */
	path: string;
	/** Set when `path` is one of several entry files of a directory item: that item's path. */
	itemPath?: string;
	resolvedPath?: string;
	sourceInfo?: SourceInfo;
	hidden?: boolean;
	replaceable?: boolean;
	/** Registered names (the runner's maps); used for conflict and replacement checks. */
	tools?: ReadonlyMap<string, unknown>;
	commands?: ReadonlyMap<string, unknown>;
	flags?: ReadonlyMap<string, unknown>;
}

export interface ExtensionLoadError {
	path: string;
	error: string;
}

/** The extensions a load produced, with the errors of those that failed, warnings, and the runtime they share. */
export interface LoadExtensionsResult<E extends LoadedExtension = LoadedExtension> {
	extensions: E[];
	errors: ExtensionLoadError[];
	warnings?: ResourceDiagnostic[];
	/** The runner's shared runtime (opaque to the resource layer). */
	runtime?: unknown;
}

export interface ExtensionLoadRequest {
	cwd: string;
	agentDir: string;
	items: ExtensionLoadItem[];
	/** "pre-trust": only user and CLI extensions, before the trust decision. */
	phase: "pre-trust" | "final";
	/** Increments on every `reload()`; a new generation means module caches must be dropped. */
	generation: number;
	/** The pre-trust result of this reload, whose runtime the final pass should share. */
	previous?: LoadExtensionsResult;
	/**
	 * The host's event bus (`DefaultResourceLoaderOptions.eventBus`). Typed loosely because its
	 * type belongs to the extension API; the runner's loader declares the precise type.
	 */
	eventBus?: any;
}

/** Loads extension items (jiti imports, factory calls); supplied by the extension runner. */
export type LoadExtensions = (request: ExtensionLoadRequest) => Promise<LoadExtensionsResult>;

/** Inline extensions as load items; named ones become `<inline:NAME>`, unnamed `<inline:N>`. */
export function inlineLoadItems(inline: readonly InlineExtension[]): ExtensionLoadItem[] {
	const items: ExtensionLoadItem[] = [];
	inline.forEach((extension, index) => {
		if (typeof extension === "function") {
			const path = `<inline:${index + 1}>`;
			items.push({ path, factory: extension, hidden: false, replaceable: false, sourceInfo: inlineSource(path) });
		} else if (!extension.builtin) {
			const path = `<inline:${extension.name}>`;
			items.push({
				path,
				factory: extension.factory,
				hidden: extension.hidden ?? false,
				replaceable: extension.replaceable ?? false,
				sourceInfo: inlineSource(path),
			});
		}
	});
	return items;
}

function inlineSource(path: string): SourceInfo {
	return createSyntheticSourceInfo(path, { source: "inline" });
}

/**
 * Loads the items not loaded by the pre-trust pass and assembles the final list in item order;
 * pre-trust instances are reused and pre-trust failures are not retried.
 */
export async function loadFinalExtensionSet(
	items: readonly ExtensionLoadItem[],
	load: LoadExtensions,
	request: Omit<ExtensionLoadRequest, "items" | "phase">,
): Promise<LoadExtensionsResult> {
	const previous = request.previous;
	// By item: a directory item without one entry point yields several extensions.
	const done = new Map<string, LoadedExtension[]>();
	const record = (extension: LoadedExtension) => {
		const key = pathKey(extension.itemPath ?? extension.path);
		done.set(key, [...(done.get(key) ?? []), extension]);
	};
	for (const extension of previous?.extensions ?? []) record(extension);
	const failed = new Set((previous?.errors ?? []).map((error) => pathKey(error.path)));
	const pending = items.filter((item) => !done.has(pathKey(item.path)) && !failed.has(pathKey(item.path)));
	const fresh = pending.length > 0 ? await load({ ...request, items: pending, phase: "final" }) : undefined;
	for (const extension of fresh?.extensions ?? []) record(extension);
	const extensions: LoadedExtension[] = [];
	for (const item of items) {
		for (const extension of done.get(pathKey(item.path)) ?? []) {
			extension.sourceInfo ??= item.sourceInfo;
			extension.hidden ??= item.hidden;
			extension.replaceable ??= item.replaceable;
			extensions.push(extension);
		}
	}
	return {
		extensions,
		errors: [...(previous?.errors ?? []), ...(fresh?.errors ?? [])],
		warnings: [...(previous?.warnings ?? []), ...(fresh?.warnings ?? [])],
		runtime: fresh?.runtime ?? previous?.runtime,
	};
}

type RegistrationKind = "tool" | "command" | "flag";

function registrations(extension: LoadedExtension): [RegistrationKind, string][] {
	return [
		...[...(extension.tools?.keys() ?? [])].map((name): [RegistrationKind, string] => ["tool", name]),
		...[...(extension.commands?.keys() ?? [])].map((name): [RegistrationKind, string] => ["command", name]),
		...[...(extension.flags?.keys() ?? [])].map((name): [RegistrationKind, string] => ["flag", name]),
	];
}

/**
 * Drops replaceable extensions whose tool, command or flag name a non-replaceable extension also
 * registers (with a warning for built-ins), then reports tool and flag name conflicts of later
 * extensions as errors (both stay loaded; the runner lets the first one win).
 */
export function settleExtensionSet(result: LoadExtensionsResult): LoadExtensionsResult {
	const owners = new Map<string, string>();
	for (const extension of result.extensions) {
		if (extension.replaceable) continue;
		for (const [kind, name] of registrations(extension)) {
			if (!owners.has(`${kind}:${name}`)) owners.set(`${kind}:${name}`, extension.path);
		}
	}
	const warnings = [...(result.warnings ?? [])];
	const kept = result.extensions.filter((extension) => {
		if (!extension.replaceable) return true;
		const clash = registrations(extension).find(([kind, name]) => owners.has(`${kind}:${name}`));
		if (!clash) return true;
		const [kind, name] = clash;
		if (extension.path.startsWith("builtin:")) {
			const builtin = extension.path.slice("builtin:".length);
			warnings.push({
				type: "warning",
				message: `The built-in ${builtin} extension was not loaded because ${owners.get(`${kind}:${name}`)} registers ${kind} "${name}". To use it, enable it in ${APP_NAME} config and disable the other extension.`,
				path: extension.path,
			});
		}
		return false;
	});
	const errors = [...result.errors];
	const first = new Map<string, string>();
	for (const extension of kept) {
		for (const [kind, name] of registrations(extension)) {
			if (kind === "command") continue;
			const key = `${kind}:${name}`;
			const owner = first.get(key);
			if (owner === undefined) first.set(key, extension.path);
			else {
				const label = kind === "tool" ? `Tool "${name}"` : `Flag "--${name}"`;
				errors.push({ path: extension.path, error: `${label} conflicts with ${owner}` });
			}
		}
	}
	return { ...result, extensions: kept, errors, warnings };
}
