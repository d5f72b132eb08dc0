import type { ExtensionAPI, ExtensionFactory } from "../core/extensions/index.js";
import type { InlineExtension } from "../core/resources/index.js";

/**
 * A factory that imports its extension module only when the session loads it, so `--version`,
 * `--help` and runs with `-ne` never pay for the module graph behind it.
 */
function deferred(load: () => Promise<ExtensionFactory>): ExtensionFactory {
	return async (pi: ExtensionAPI) => (await load())(pi);
}

/**
 * The built-in extensions behind `builtin:codemode`, `builtin:tool-search` and `builtin:mcp` (docs/codemode.md, docs/mcp.md).
 * One-shot modes start MCP servers on demand (docs/mcp.md).
 */
export function builtinExtensionFactories(options: { oneShot?: boolean } = {}): InlineExtension[] {
	const connect = options.oneShot ? "on-demand" : "background";
	return [
		{
			name: "codemode",
			factory: deferred(async () => (await import("./codemode/index.js")).createCodemodeExtension()),
			builtin: true,
			replaceable: true,
		},
		{
			name: "tool-search",
			factory: deferred(async () => (await import("./tool-search/index.js")).createToolSearchExtension()),
			builtin: true,
			replaceable: true,
		},
		{
			name: "mcp",
			// The extension module itself, not the folder index: that one also exports `tau mcp`,
			// which loads the MCP client.
			factory: deferred(async () => (await import("./mcp/mcp-extension.js")).createMcpExtension({ connect })),
			builtin: true,
			replaceable: true,
		},
	];
}
