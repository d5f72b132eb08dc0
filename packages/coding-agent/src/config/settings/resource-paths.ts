import { isAbsolute, resolve } from "node:path";
import { expandTilde, getProjectConfigDir } from "../paths.js";
import { stringArray } from "./normalize.js";
import type { Settings, SettingsScope } from "./types.js";

export type ResourceKind = "extensions" | "skills" | "prompts" | "themes";

export interface ScopedResourceEntry {
	scope: SettingsScope;
	/** The entry as written, including any `!`, `+` or `-` prefix. */
	entry: string;
	/** The path part resolved against the layer's own base directory. */
	path: string;
}

interface LayeredSettings {
	getGlobalSettings(): Settings;
	getProjectSettings(): Settings;
}

const PATTERN_PREFIXES = ["!", "+", "-"];

/**
 * Resource entries of each layer, resolved against that layer's base directory (user: agent dir;
 * project: `<cwd>/.tau`). Never read from the merged view, where project lists replace user lists.
 */
export function resolveResourceEntries(
	settings: LayeredSettings,
	kind: ResourceKind,
	dirs: { agentDir: string; cwd: string },
): ScopedResourceEntry[] {
	const layers: [SettingsScope, Settings, string][] = [
		["global", settings.getGlobalSettings(), dirs.agentDir],
		["project", settings.getProjectSettings(), getProjectConfigDir(dirs.cwd)],
	];
	const entries: ScopedResourceEntry[] = [];
	for (const [scope, layer, baseDir] of layers) {
		for (const entry of stringArray(layer[kind]) ?? []) {
			const prefix = PATTERN_PREFIXES.find((candidate) => entry.startsWith(candidate)) ?? "";
			const body = expandTilde(entry.slice(prefix.length));
			const path = body.startsWith("builtin:") || isAbsolute(body) ? body : resolve(baseDir, body);
			entries.push({ scope, entry, path });
		}
	}
	return entries;
}
