import type { RegisteredFlag } from "../runtime/extension.js";

/**
 * Applies CLI options tau did not recognize to registered extension flags: a boolean flag becomes
 * `true`, a string flag takes its value. Returns error diagnostics for string flags without a
 * value and for options no extension registered.
 */
export function applyExtensionFlagValues(
	flags: readonly RegisteredFlag[],
	values: ReadonlyMap<string, boolean | string>,
	set: (name: string, value: boolean | string) => void,
): string[] {
	const errors: string[] = [];
	const unknown: string[] = [];
	for (const [name, value] of values) {
		const flag = flags.find((candidate) => candidate.name === name);
		if (!flag) unknown.push(`--${name}`);
		else if (flag.options.type === "boolean") set(name, true);
		else if (typeof value === "string") set(name, value);
		else errors.push(`Extension flag "--${name}" requires a value`);
	}
	if (unknown.length > 0) errors.push(`Unknown option(s): ${unknown.join(", ")}`);
	return errors;
}
