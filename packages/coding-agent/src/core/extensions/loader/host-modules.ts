/**
 * The module specifiers a Pi or tau extension may import that must resolve to the host's own module
 * instances (extensions.md §2.2), so classes, registries and `instanceof` checks are shared.
 *
 * They are served to jiti as virtual modules built from the modules this process already loaded:
 * whatever the host runs (built `dist`, or `src` under vitest), the extension sees the same objects,
 * and a bundled binary without node_modules needs no files on disk.
 */

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

/** Every specifier the loader serves from the host. */
export const HOST_MODULE_SPECIFIERS: readonly string[] = [
	...CODING_AGENT,
	...AGENT,
	...TUI,
	...AI_VIEW,
	"@tau/ai",
	...AI_SUBPATHS,
	...TYPEBOX,
	...TYPEBOX_COMPILE,
	...TYPEBOX_VALUE,
];

let hostModules: Promise<Record<string, ModuleNamespace>> | undefined;

async function buildHostModules(): Promise<Record<string, ModuleNamespace>> {
	const [codingAgent, agent, tui, ai, typebox, typeboxCompile, typeboxValue] = await Promise.all([
		import("../../../index.js"),
		import("@tau/agent"),
		import("@tau/tui"),
		import("@tau/ai/compat"),
		import("typebox"),
		import("typebox/compile"),
		import("typebox/value"),
	]);
	// Old extensions import `Type` from pi-ai; the extension view re-exports it.
	const aiView: ModuleNamespace = { ...ai, Type: typebox.Type };
	const modules: Record<string, ModuleNamespace> = {};
	const serve = (specifiers: readonly string[], namespace: ModuleNamespace) => {
		for (const specifier of specifiers) modules[specifier] = namespace;
	};
	serve(CODING_AGENT, codingAgent);
	serve(AGENT, agent);
	serve(TUI, tui);
	serve(AI_VIEW, aiView);
	serve(["@tau/ai", ...AI_SUBPATHS], ai);
	serve(TYPEBOX, typebox);
	serve(TYPEBOX_COMPILE, typeboxCompile);
	serve(TYPEBOX_VALUE, typeboxValue);
	return modules;
}

/** The host modules, imported once per process on first use. */
export function getHostModules(): Promise<Record<string, ModuleNamespace>> {
	hostModules ??= buildHostModules();
	return hostModules;
}
