import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { getToolBinDir } from "../shell/session-env.js";

export type SearchBinaryName = "rg" | "fd";

/** A located external search binary. */
export interface SearchBinary {
	path: string;
	/** fd ≥ 8.7 understands `--no-require-git`; older fd cannot honour .gitignore outside a repo. */
	supportsNoRequireGit: boolean;
}

/** Finds ripgrep/fd; injectable so tests (and hosts) can force the built-in fallback. */
export interface SearchBinaryLocator {
	locate(name: SearchBinaryName): SearchBinary | undefined;
}

const CANDIDATES: Record<SearchBinaryName, string[]> = { rg: ["rg"], fd: ["fd", "fdfind"] };

function probe(command: string): SearchBinary | undefined {
	const version = spawnSync(command, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
	if (version.error || version.status !== 0) return undefined;
	const help = spawnSync(command, ["--help"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
	return { path: command, supportsNoRequireGit: (help.stdout ?? "").includes("--no-require-git") };
}

/**
 * Resolution order (tools.md §11): the tau bin dir, then PATH (`fd`, then `fdfind`). Downloading
 * release binaries is not done here; without a binary the tools use the built-in search.
 */
export function createSearchBinaryLocator(binDir?: string): SearchBinaryLocator {
	const cache = new Map<SearchBinaryName, SearchBinary | undefined>();
	return {
		locate(name) {
			if (cache.has(name)) return cache.get(name);
			const executable = process.platform === "win32" ? `${name}.exe` : name;
			const local = binDir ? join(binDir, executable) : undefined;
			const candidates = [...(local && existsSync(local) ? [local] : []), ...CANDIDATES[name]];
			let found: SearchBinary | undefined;
			for (const candidate of candidates) {
				found = probe(candidate);
				if (found) break;
			}
			cache.set(name, found);
			return found;
		},
	};
}

/** A locator that finds nothing: forces the built-in search. */
export const noSearchBinaries: SearchBinaryLocator = { locate: () => undefined };

let defaultLocator: SearchBinaryLocator | undefined;
/** The process-wide locator (tau bin dir, then PATH), so each binary is probed once. */
export function defaultSearchBinaries(): SearchBinaryLocator {
	defaultLocator ??= createSearchBinaryLocator(getToolBinDir());
	return defaultLocator;
}
