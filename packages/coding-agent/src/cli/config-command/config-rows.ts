import { isAbsolute, relative, sep } from "node:path";
import type { ResourceKind } from "../../config/settings/resource-paths.js";
import type { ConfigItem, ConfigScope } from "./resource-config.js";

/** A line of the `tau config` list: a section title or a resource. */
export type ConfigRow = { type: "section"; title: string } | { type: "item"; item: ConfigItem; label: string };

const KIND_TITLES: Record<ResourceKind, string> = {
	extensions: "Extensions",
	skills: "Skills",
	prompts: "Prompts",
	themes: "Themes",
};
const KIND_SINGULAR: Record<ResourceKind, string> = {
	extensions: "extension",
	skills: "skill",
	prompts: "prompt",
	themes: "theme",
};

function inside(base: string, path: string): string | undefined {
	const rel = relative(base, path);
	return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel.split(sep).join("/") : undefined;
}

/** A file as the user reads it: relative to the project, else under `~`, else absolute. */
function displayPath(path: string, places: { cwd: string; homeDir: string }): string {
	const inProject = inside(places.cwd, path);
	if (inProject !== undefined) return inProject;
	const inHome = inside(places.homeDir, path);
	return inHome !== undefined ? `~/${inHome}` : path;
}

/**
 * Groups a scope's items for display: top-level resources by kind, then one section per package,
 * then the built-in extensions under "Built-in". The project scope tags each item's origin.
 */
export function configRows(
	items: readonly ConfigItem[],
	scope: ConfigScope,
	places: { cwd: string; homeDir: string },
): ConfigRow[] {
	const sections = new Map<string, { title: string; rows: ConfigRow[] }>();
	const add = (key: string, title: string, item: ConfigItem, label: string) => {
		let section = sections.get(key);
		if (!section) {
			section = { title, rows: [] };
			sections.set(key, section);
		}
		section.rows.push({ type: "item", item, label });
	};
	const tag = (item: ConfigItem) => (scope === "project" ? ` (${item.fromUser ? "user" : item.metadata.scope})` : "");
	for (const kind of Object.keys(KIND_TITLES) as ResourceKind[]) {
		for (const item of items) {
			if (item.kind !== kind || item.metadata.origin !== "top-level" || item.metadata.source === "builtin") continue;
			add(`kind:${kind}`, KIND_TITLES[kind], item, `${displayPath(item.path, places)}${tag(item)}`);
		}
	}
	for (const item of items) {
		if (item.metadata.origin !== "package") continue;
		const root = item.metadata.packageRoot ?? item.metadata.source;
		const within = inside(root, item.path) ?? displayPath(item.path, places);
		add(
			`package:${root}`,
			`Package ${item.metadata.source}${tag(item)}`,
			item,
			`${KIND_SINGULAR[item.kind]} ${within}`,
		);
	}
	for (const item of items) {
		if (item.metadata.source === "builtin") add("builtin", "Built-in", item, item.path.replace(/^builtin:/, ""));
	}
	return [...sections.values()].flatMap((section) => [
		{ type: "section" as const, title: section.title },
		...section.rows,
	]);
}
