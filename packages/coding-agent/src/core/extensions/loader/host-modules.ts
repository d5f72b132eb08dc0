/**
 * The module specifiers a Pi or tau extension may import that must resolve to the host's own module
 * instances (docs/extensions.md, "Module resolution"), so classes, registries and `instanceof`
 * checks are shared.
 *
 * They are served to jiti as virtual modules built from the host's own modules: whatever the host
 * runs (built `dist`, or `src` under vitest), the extension sees the same objects.
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

/**
 * The package root (`src/index.ts`) is above this module, so it is not imported from here: the entry
 * point that loaded it registers where it is (the SDK's index itself, the CLI before it starts).
 * The first registration wins; in the bundle that is the CLI's, whose `import()` names a chunk.
 */
let packageRoot: { url: string; load: () => Promise<unknown> } | undefined;

/** Called by an entry point with the package root's URL (and its `import()` where a bundler must see it). */
export function registerPackageRoot(url: string, load: () => Promise<unknown> = () => import(url)): void {
	packageRoot ??= { url, load };
}

/**
 * Without a registration (`main` called directly, as some tests do) the package root is not served:
 * an extension importing it resolves it the ordinary way.
 */
function servedSpecifier(specifier: string): boolean {
	return (
		HOST_MODULE_SPECIFIERS.includes(specifier) && (packageRoot !== undefined || !CODING_AGENT.includes(specifier))
	);
}

const PACKAGE_ROOT = "@tau/coding-agent";

/**
 * The host module behind each group of specifiers: its specifier for a synchronous load, and the
 * same module as a static `import()` for hosts running from sources.
 */
const HOST_SOURCES: readonly { specifiers: readonly string[]; source: string; load: () => Promise<unknown> }[] = [
	{ specifiers: CODING_AGENT, source: PACKAGE_ROOT, load: async () => packageRoot?.load() },
	{ specifiers: AGENT, source: "@tau/agent", load: () => import("@tau/agent") },
	{ specifiers: TUI, source: "@tau/tui", load: () => import("@tau/tui") },
	{ specifiers: ["@tau/ai", ...AI_SUBPATHS], source: "@tau/ai/compat", load: () => import("@tau/ai/compat") },
	{ specifiers: TYPEBOX, source: "typebox", load: () => import("typebox") },
	{ specifiers: TYPEBOX_COMPILE, source: "typebox/compile", load: () => import("typebox/compile") },
	{ specifiers: TYPEBOX_VALUE, source: "typebox/value", load: () => import("typebox/value") },
];
const AI_SOURCE = "@tau/ai/compat";
const TYPEBOX_SOURCE = "typebox";

/** Every specifier the loader serves from the host. */
export const HOST_MODULE_SPECIFIERS: readonly string[] = [
	...HOST_SOURCES.flatMap((host) => host.specifiers),
	...AI_VIEW,
];

/** Old extensions import `Type` from pi-ai; the extension view of pi-ai re-exports typebox's. */
function aiView(ai: ModuleNamespace, typebox: ModuleNamespace): ModuleNamespace {
	return { ...ai, Type: typebox.Type };
}

/**
 * From sources (vitest) and from the bundle the host modules are only reachable through `import()`,
 * so all of them are imported up front (in the bundle, a few chunk files).
 */
async function importAll(): Promise<Record<string, ModuleNamespace>> {
	const namespaces = new Map<string, ModuleNamespace>();
	await Promise.all(
		HOST_SOURCES.map(async (host) => namespaces.set(host.source, (await host.load()) as ModuleNamespace)),
	);
	const modules: Record<string, ModuleNamespace> = {};
	for (const host of HOST_SOURCES) {
		const namespace = namespaces.get(host.source);
		if (namespace) for (const specifier of host.specifiers) modules[specifier] = namespace;
	}
	const view = aiView(namespaces.get(AI_SOURCE) as ModuleNamespace, namespaces.get(TYPEBOX_SOURCE) as ModuleNamespace);
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
			const url = source === PACKAGE_ROOT ? (packageRoot as { url: string }).url : import.meta.resolve(source);
			namespace = require(fileURLToPath(url)) as ModuleNamespace;
			loaded.set(source, namespace);
		}
		return namespace;
	};
	const sourceOf = new Map<string, string>();
	for (const host of HOST_SOURCES) for (const specifier of host.specifiers) sourceOf.set(specifier, host.source);
	let view: ModuleNamespace | undefined;
	const resolveSpecifier = (specifier: string): ModuleNamespace | undefined => {
		if (AI_VIEW.includes(specifier)) {
			view ??= aiView(load(AI_SOURCE), load(TYPEBOX_SOURCE));
			return view;
		}
		const source = sourceOf.get(specifier);
		return source === undefined ? undefined : load(source);
	};
	// jiti only asks `specifier in modules` and then reads `modules[specifier]`.
	return new Proxy({} as Record<string, ModuleNamespace>, {
		has: (_target, specifier) => typeof specifier === "string" && servedSpecifier(specifier),
		get: (_target, specifier) =>
			typeof specifier === "string" && servedSpecifier(specifier) ? resolveSpecifier(specifier) : undefined,
	});
}

let hostModules: Promise<Record<string, ModuleNamespace>> | undefined;

/** Defined by the esbuild bundle (scripts/bundle-cli.mjs), whose modules are chunks no `require` can load. */
declare const __TAU_BUNDLED__: boolean | undefined;
const bundled = typeof __TAU_BUNDLED__ !== "undefined" && __TAU_BUNDLED__ === true;
const fromSources = import.meta.url.endsWith(".ts");
const canRequireModules = (process.features as { require_module?: boolean }).require_module === true;

/**
 * The host modules by specifier, for jiti's `virtualModules`: loaded on demand from the built
 * package, imported up front from sources and from the bundle.
 */
export function getHostModules(): Promise<Record<string, ModuleNamespace>> {
	hostModules ??= bundled || fromSources || !canRequireModules ? importAll() : Promise.resolve(loadOnDemand());
	return hostModules;
}
