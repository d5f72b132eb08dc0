import type { CodemodeTool } from "../types.js";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const RESERVED = new Set([
	"tools",
	"ALL_TOOLS",
	"console",
	"text",
	"image",
	"exit",
	"globalThis",
	"store",
	"load",
	"btoa",
	"atob",
]);

/** Expands the `models` sugar into spread globals `models.<member>`. */
export function expandModels(
	globals: readonly CodemodeTool[],
	models: Record<string, CodemodeTool["execute"]> | undefined,
): CodemodeTool[] {
	if (!models) return [...globals];
	if (globals.some((g) => g.name.startsWith("models."))) {
		throw new Error("Pass models either as the models option or as models.* globals, not both");
	}
	return [
		...globals,
		...Object.entries(models).map(
			([member, execute]): CodemodeTool => ({ name: `models.${member}`, spread: true, execute }),
		),
	];
}

/** Throws when a global's name is not an identifier or `ns.member`, is reserved, or clashes. */
export function validateGlobals(globals: readonly CodemodeTool[]): void {
	const names = new Set<string>();
	const plain = new Set<string>();
	const namespaces = new Set<string>();
	for (const global of globals) {
		const parts = global.name.split(".");
		if (parts.length > 2 || !parts.every((p) => IDENTIFIER.test(p))) {
			throw new Error(`Global "${global.name}" must be an identifier or "namespace.member"`);
		}
		if (RESERVED.has(parts[0]!)) throw new Error(`Global "${global.name}" uses the reserved name "${parts[0]}"`);
		if (names.has(global.name)) throw new Error(`Duplicate global "${global.name}"`);
		names.add(global.name);
		if (parts.length === 2) namespaces.add(parts[0]!);
		else plain.add(global.name);
	}
	for (const name of plain) {
		if (namespaces.has(name)) throw new Error(`Global "${name}" clashes with the namespace of the same name`);
	}
}
