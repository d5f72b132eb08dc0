import type { ExtensionAPI, ExtensionContext, ToolInfo } from "../../core/extensions/index.js";
import type { McpConfig, McpServerEntry } from "./config/load-config.js";
import { configuredExposures } from "./exposure.js";

const DISCOVERY_TOOLS = new Set(["codemode", "tool_search"]);

/**
 * The registered `codemode`/`tool_search` tool. A host whose `getAllTools()` does not report
 * `reachesTools` still gets MCP activation and waits (for every server).
 */
export function reachingTool(pi: ExtensionAPI, name: string): ToolInfo | undefined {
	if (!DISCOVERY_TOOLS.has(name)) return undefined;
	return pi.getAllTools().find((tool) => tool.name === name && tool.exposure !== "hidden");
}

/**
 * The servers a call of a reaching tool may use: those its `reachesTools` names, else those
 * whose namespace appears in the input, else every server.
 */
export function reachedEntries(
	tool: ToolInfo,
	input: Record<string, unknown>,
	entries: McpServerEntry[],
): McpServerEntry[] {
	let reach = tool.reachesTools?.(input);
	if (reach === undefined) {
		const words = JSON.stringify(input).split(/[^A-Za-z0-9_]+/);
		const named = words.filter((word) => entries.some((entry) => word.includes(entry.namespace)));
		reach = named.length > 0 ? named : "all";
	}
	if (reach === "all") return entries;
	const words = reach;
	return entries.filter((entry) => words.some((word) => word.includes(entry.namespace)));
}

/**
 * Activates `codemode`/`tool_search` when configured exposures need them (D.6); warns once (via
 * the returned flag) when neither can be active.
 */
export function activateDiscoveryTools(
	pi: ExtensionAPI,
	ctx: ExtensionContext,
	config: McpConfig,
	alreadyWarned: boolean,
): boolean {
	let needsCodemode = false;
	let needsToolSearch = false;
	for (const entry of config.servers) {
		if (!entry.enabled) continue;
		const exposures = configuredExposures(entry);
		if (exposures.has("codemode")) needsCodemode = true;
		if (exposures.has("deferred")) needsToolSearch = true;
	}
	// Nothing to activate: the active tools are not even read (a long session opens faster without).
	if (!needsCodemode && !needsToolSearch) return alreadyWarned;
	const active = new Set(pi.getActiveTools());
	const add: string[] = [];
	if (needsCodemode && config.autoEnableCodemode && reachingTool(pi, "codemode") && !active.has("codemode")) {
		add.push("codemode");
	}
	if (needsToolSearch && reachingTool(pi, "tool_search") && !active.has("tool_search")) add.push("tool_search");
	if (add.length > 0) pi.setActiveTools([...active, ...add]);
	const now = new Set(pi.getActiveTools());
	if (alreadyWarned || now.has("codemode") || now.has("tool_search")) {
		return alreadyWarned;
	}
	const cause = needsCodemode && !config.autoEnableCodemode ? ' ("autoEnableCodemode": false keeps codemode off)' : "";
	ctx.ui.notify(
		`MCP tools exposed through codemode or tool_search cannot be called: neither tool is active${cause}.`,
		"warning",
	);
	return true;
}
