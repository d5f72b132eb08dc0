import type { ExtensionAPI, ExtensionToolContext, ToolExposure, ToolInfo } from "@tau/coding-agent";
import type { AnyToolDefinition } from "../../src/core/extensions/index.js";

/**
 * An in-memory ExtensionAPI for unit tests of built-in tools: tools registered by the factory
 * and by `extra`, an active set honouring the exposure vocabulary (codemode/deferred tools can be
 * activated), and recorded entries.
 */
export function fakeApi(extra: AnyToolDefinition[] = []) {
	const definitions = new Map<string, AnyToolDefinition>();
	let active: string[] = [];
	const entries: { customType: string; data: unknown }[] = [];
	const activations: string[][] = [];
	const exposureOf = (d: AnyToolDefinition): ToolExposure => d.exposure ?? "direct";
	const api = {
		registerTool(tool: AnyToolDefinition) {
			definitions.set(tool.name, tool);
			const e = exposureOf(tool);
			if ((e === "direct" || e === "model-only") && tool.defaultActive !== false && !active.includes(tool.name)) {
				active.push(tool.name);
			}
		},
		getAllTools: (): ToolInfo[] =>
			[...definitions.values()].map((d) => ({
				name: d.name,
				description: d.description,
				parameters: d.parameters,
				exposure: exposureOf(d),
				...(d.namespace ? { namespace: d.namespace } : {}),
				...(d.promptGuidelines ? { promptGuidelines: d.promptGuidelines } : {}),
				...(d.reachesTools ? { reachesTools: d.reachesTools } : {}),
				sourceInfo: {} as never,
			})),
		getActiveTools: () => [...active],
		setActiveTools(names: string[]) {
			activations.push([...names]);
			active = [...new Set(names)].filter((n) => definitions.has(n) && exposureOf(definitions.get(n)!) !== "hidden");
		},
		appendEntry(customType: string, data: unknown) {
			entries.push({ customType, data });
		},
		on: () => () => {},
		getSettings: () => ({}),
	};
	for (const tool of extra) api.registerTool(tool);
	return {
		api: api as unknown as ExtensionAPI,
		definitions,
		entries,
		activations,
		get active() {
			return active;
		},
		/** A tool-execution context whose callable set follows the exposure rules. */
		toolContext(executeTool?: ExtensionToolContext["executeTool"]): ExtensionToolContext {
			const callable = [...definitions.values()].filter((d) => {
				const e = exposureOf(d);
				return e === "codemode" || e === "deferred" || (e === "direct" && active.includes(d.name));
			});
			return {
				tools: callable,
				executeTool:
					executeTool ??
					(async () => {
						throw new Error("no executeTool in this test");
					}),
				cwd: process.cwd(),
			} as unknown as ExtensionToolContext;
		},
	};
}
