import { readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { PACKAGE_DIR, VERSION } from "../../../config/app-identity.js";
import { ENV } from "../../../config/env.js";
import {
	type ChangelogEntry,
	changelogEntries,
	entryMarkdown,
	isNewerVersion,
	parseChangelogVersion,
} from "./changelog-entries.js";

/** The app's own changelog file and the version that is running. */
export interface AppChangelog {
	path: string;
	version: string;
}

/** The user-layer bookkeeping the "What's New" display reads and writes. */
export interface AppChangelogStore {
	getLastChangelogVersion(): string | undefined;
	setLastChangelogVersion(version: string): void;
	getCollapseChangelog(): boolean;
}

function readPackageJson(dir: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
		return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

function isFile(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}

/**
 * Finds the app's CHANGELOG.md: in the package dir (`$TAU_PACKAGE_DIR` when set, read at call time
 * like `getPackageDir()`), else, for a source checkout where the package sits in
 * `packages/<name>`, at the root of the npm workspace two levels up. The version is the package
 * dir's `package.json` version, so both always describe the same installation.
 */
export function findAppChangelog(env: NodeJS.ProcessEnv = process.env): AppChangelog | undefined {
	const packageDir = env[ENV.packageDir] || PACKAGE_DIR;
	const manifest = readPackageJson(packageDir);
	const version = typeof manifest?.version === "string" ? manifest.version : VERSION;
	const own = join(packageDir, "CHANGELOG.md");
	if (isFile(own)) return { path: own, version };
	const workspaceRoot = dirname(dirname(packageDir));
	const rootChangelog = join(workspaceRoot, "CHANGELOG.md");
	if (readPackageJson(workspaceRoot)?.workspaces !== undefined && isFile(rootChangelog)) {
		return { path: rootChangelog, version };
	}
	return undefined;
}

/** The versioned entries of a changelog file in file order; undefined when it cannot be read. */
function readEntries(path: string): ChangelogEntry[] | undefined {
	try {
		return changelogEntries(readFileSync(path, "utf8"));
	} catch {
		return undefined;
	}
}

/** Every versioned entry of the app's changelog as Markdown (for `/changelog`); undefined when there is none. */
export function appChangelogMarkdown(changelog: AppChangelog | undefined): string | undefined {
	const entries = changelog ? readEntries(changelog.path) : undefined;
	if (!entries || entries.length === 0) return undefined;
	return entries.map(entryMarkdown).join("\n\n");
}

/**
 * The "What's New" Markdown of a start: the entries newer than `lastChangelogVersion` (one line
 * when `collapseChangelog` is on), after which the running version is recorded. The first start
 * ever, or an unusable stored version, only records the version, as for packages (docs/design/resources.md#changelogs).
 */
export function appChangelogUpdates(changelog: AppChangelog, store: AppChangelogStore): string | undefined {
	const current = parseChangelogVersion(changelog.version);
	if (!current) return undefined;
	const stored = store.getLastChangelogVersion();
	const previous = stored === undefined ? undefined : parseChangelogVersion(stored);
	if (stored !== changelog.version) store.setLastChangelogVersion(changelog.version);
	if (!previous) return undefined;
	const newer = (readEntries(changelog.path) ?? []).filter((entry) => isNewerVersion(entry.version, previous));
	if (newer.length === 0) return undefined;
	if (store.getCollapseChangelog()) return `Updated to v${changelog.version.replace(/^v/, "")}.`;
	return newer.map(entryMarkdown).join("\n\n");
}
