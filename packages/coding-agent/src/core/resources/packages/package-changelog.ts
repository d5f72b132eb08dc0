import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SourceInfo } from "../types.js";
import { changelogEntries, isNewerVersion, parseChangelogVersion } from "./changelog-entries.js";

/** Where the last shown changelog version of each package is kept (the user settings layer). */
export interface ChangelogVersionStore {
	getExtensionChangelogVersion(key: string): string | undefined;
	setExtensionChangelogVersion(key: string, version: string): void;
	getCollapseChangelog(): boolean;
}

function readJson(path: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(readFileSync(path, "utf8"));
		return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Changelog entries of extension packages that are newer than the version last seen, as
 * Markdown for an "Extension Updates" block (or one line per package when collapsed). A
 * package seen for the first time, or with an unusable stored version, only records its version.
 */
export function extensionPackageUpdates(
	sources: readonly (SourceInfo | undefined)[],
	store: ChangelogVersionStore,
): string | undefined {
	const blocks: string[] = [];
	const seen = new Set<string>();
	for (const source of sources) {
		if (source?.origin !== "package" || !source.changelogPath || !source.packageRoot) continue;
		const key = JSON.stringify({ source: source.source, scope: source.scope });
		if (seen.has(key)) continue;
		seen.add(key);
		const manifest = readJson(join(source.packageRoot, "package.json"));
		const version = typeof manifest?.version === "string" ? manifest.version : undefined;
		const current = version ? parseChangelogVersion(version) : undefined;
		if (!version || !current) continue;
		const name = typeof manifest?.name === "string" ? manifest.name : source.source;
		const stored = store.getExtensionChangelogVersion(key);
		const previous = stored === undefined ? undefined : parseChangelogVersion(stored);
		if (stored !== version) store.setExtensionChangelogVersion(key, version);
		if (!previous) continue;
		let text: string;
		try {
			text = readFileSync(source.changelogPath, "utf8");
		} catch {
			continue;
		}
		const newer = changelogEntries(text).filter((entry) => isNewerVersion(entry.version, previous));
		if (newer.length === 0) continue;
		if (store.getCollapseChangelog()) {
			blocks.push(`Updated ${name} to v${version.replace(/^v/, "")}.`);
			continue;
		}
		const shown = newer.map((entry) => {
			const [heading, ...rest] = entry.lines;
			return [`## ${name} ${(heading as string).slice(3)}`, ...rest].join("\n").trim();
		});
		blocks.push(shown.join("\n\n"));
	}
	return blocks.length > 0 ? blocks.join("\n\n") : undefined;
}
