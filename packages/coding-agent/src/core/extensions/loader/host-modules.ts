/**
 * The module specifiers a Pi or tau extension may import that must resolve to the host's own module
 * instances (extensions.md §2.2), so classes, registries and `instanceof` checks are shared.
 *
 * They are served to jiti as virtual modules built from the host's own modules: whatever the host
 * runs (built `dist`, or `src` under vitest), the extension sees the same objects, and a bundled
 * binary without node_modules needs no files on disk.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

type ModuleNamespace = Record<string, unknown>;

const CODING_AGENT = ["@earendil-works/pi-coding-agent", "@mariozechner/pi-coding-agent", "@tau/coding-agent"];
const AGENT = ["@earendil-works/pi-agent-core", "@mariozechner/pi-agent-core", "@tau/agent"];
const TUI = ["@earendil-works/pi-tui", "@mariozechner/pi-tui", "@tau/tui"];
const AI_VIEW = [
	"@earendil-works/pi-ai",
	"@earendil-works/pi-ai/compat",
	"@mariozechner/pi-ai",
	"@mariozechner/pi-ai/compat",
];
/** `@tau/ai` has one entry point that is a superset of Pi's subpath modules. */
const AI_SUBPATHS = ["models", "oauth", "providers/all"].flatMap((subpath) => [
	`@earendil-works/pi-ai/${subpath}`,
	`@mariozechner/pi-ai/${subpath}`,
]);
const TYPEBOX = ["typebox", "@sinclair/typebox"];
const TYPEBOX_COMPILE = ["typebox/compile", "@sinclair/typebox/compile"];
const TYPEBOX_VALUE = ["typebox/value", "@sinclair/typebox/value"];

/** The host module behind each group of specifiers (resolved from this file). */
const HOST_SOURCES: readonly (readonly [readonly string[], string])[] = [
	[CODING_AGENT, "../../../index.js"],
	[AGENT, "@tau/agent"],
	[TUI, "@tau/tui"],
	[["@tau/ai", ...AI_SUBPATHS], "@tau/ai/legacy"],
	[TYPEBOX, "typebox"],
	[TYPEBOX_COMPILE, "typebox/compile"],
	[TYPEBOX_VALUE, "typebox/value"],
];

/** Every specifier the loader serves from the host. */
export const HOST_MODULE_SPECIFIERS: readonly string[] = [
	...HOST_SOURCES.flatMap(([specifiers]) => specifiers),
	...AI_VIEW,
];

/** Old extensions import `Type` from pi-ai; the extension view of pi-ai re-exports typebox's. */
function aiView(ai: ModuleNamespace, typebox: ModuleNamespace): ModuleNamespace {
	return { ...ai, Type: typebox.Type };
}

/**
 * From sources (vitest) the host modules are only reachable through `import()`, so all of them are
 * imported up front.
 */
async function importAll(): Promise<Record<string, ModuleNamespace>> {
	const namespaces = await Promise.all([
		import("../../../index.js"),
		import("@tau/agent"),
		import("@tau/tui"),
		import("@tau/ai/legacy"),
		import("typebox"),
		import("typebox/compile"),
		import("typebox/value"),
	]);
	const modules: Record<string, ModuleNamespace> = {};
	HOST_SOURCES.forEach(([specifiers], index) => {
		for (const specifier of specifiers) modules[specifier] = namespaces[index] as ModuleNamespace;
	});
	const view = aiView(namespaces[3] as ModuleNamespace, namespaces[4] as ModuleNamespace);
	for (const specifier of AI_VIEW) modules[specifier] = view;
	return modules;
}

/**
 * From the built package each host module is loaded the first time an extension imports it, with
 * `require()` of the ES module, which returns the very instance the host already imported. Most
 * extensions import little at run time (their `ExtensionAPI` import is a type), so a start with
 * extensions does not pay for loading the whole SDK.
 */
function loadOnDemand(): Record<string, ModuleNamespace> {
	const require = createRequire(import.meta.url);
	const loaded = new Map<string, ModuleNamespace>();
	const load = (source: string): ModuleNamespace => {
		let namespace = loaded.get(source);
		if (!namespace) {
			namespace = require(fileURLToPath(import.meta.resolve(source))) as ModuleNamespace;
			loaded.set(source, namespace);
		}
		return namespace;
	};
	const sourceOf = new Map<string, string>();
	for (const [specifiers, source] of HOST_SOURCES) for (const specifier of specifiers) sourceOf.set(specifier, source);
	let view: ModuleNamespace | undefined;
	const resolveSpecifier = (specifier: string): ModuleNamespace | undefined => {
		if (AI_VIEW.includes(specifier)) {
			view ??= aiView(load("@tau/ai/legacy"), load("typebox"));
			return view;
		}
		const source = sourceOf.get(specifier);
		return source === undefined ? undefined : load(source);
	};
	// jiti only asks `specifier in modules` and then reads `modules[specifier]`.
	return new Proxy({} as Record<string, ModuleNamespace>, {
		has: (_target, specifier) => typeof specifier === "string" && HOST_MODULE_SPECIFIERS.includes(specifier),
		get: (_target, specifier) => (typeof specifier === "string" ? resolveSpecifier(specifier) : undefined),
	});
}

let hostModules: Promise<Record<string, ModuleNamespace>> | undefined;

const fromSources = import.meta.url.endsWith(".ts");
const canRequireModules = (process.features as { require_module?: boolean }).require_module === true;

/** The host modules by specifier, for jiti's `virtualModules`. */
export function getHostModules(): Promise<Record<string, ModuleNamespace>> {
	hostModules ??= fromSources || !canRequireModules ? importAll() : Promise.resolve(loadOnDemand());
	return hostModules;
}
