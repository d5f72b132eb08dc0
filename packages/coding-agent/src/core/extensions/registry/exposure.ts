import type { ToolExposure } from "../api/tool-definition.js";

/** Exposures the model can be given declarations of. */
export function isDeclarable(exposure: ToolExposure): boolean {
	return exposure === "direct" || exposure === "model-only";
}

/** Activated when registered: declarable and not opted out with `defaultActive: false`. */
export function activatesOnRegistration(tool: { exposure?: ToolExposure; defaultActive?: boolean }): boolean {
	return isDeclarable(tool.exposure ?? "direct") && tool.defaultActive !== false;
}

/** The callable set (`ctx.tools`): active `direct` tools and every `codemode` / `deferred` tool. */
export function isCallable(exposure: ToolExposure, active: boolean): boolean {
	return exposure === "codemode" || exposure === "deferred" || (exposure === "direct" && active);
}

/**
 * `setActiveTools`: unknown and `hidden` names are ignored; tools that stay active keep their
 * position and newly active ones are appended in request order.
 */
export function nextActiveTools(
	current: readonly string[],
	requested: readonly string[],
	exposureOf: (name: string) => ToolExposure | undefined,
): string[] {
	const wanted = new Set(
		requested.filter((name) => {
			const exposure = exposureOf(name);
			return exposure !== undefined && exposure !== "hidden";
		}),
	);
	const kept = current.filter((name) => wanted.has(name));
	const added = [...wanted].filter((name) => !kept.includes(name));
	return [...kept, ...added];
}
