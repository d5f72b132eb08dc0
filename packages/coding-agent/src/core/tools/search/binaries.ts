import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { getToolBinDir } from "../shell/session-env.js";
import { ABORTED_MESSAGE } from "../types.js";
import { downloadSearchBinary, type SearchBinaryDownloadOptions } from "./binary-download.js";
import type { SearchBinaryName } from "./release-assets.js";

export type { SearchBinaryDownloadOptions, SearchBinaryName };

/** A located external search binary. */
export interface SearchBinary {
	path: string;
	/** fd ≥ 8.7 understands `--no-require-git`; older fd cannot honour .gitignore outside a repo. */
	supportsNoRequireGit: boolean;
}

/** What a lookup found: the binary, or (when there is none) optionally a short reason for the user. */
export interface SearchBinaryLookup {
	binary?: SearchBinary;
	/** Why no binary could be downloaded (offline mode, Termux, unsupported machine, network failure). */
	problem?: string;
}

/** Finds ripgrep/fd; injectable so tests (and hosts) can force the built-in fallback. */
export interface SearchBinaryLocator {
	locate(name: SearchBinaryName): Promise<SearchBinaryLookup>;
}

export interface SearchBinaryLocatorOptions {
	/** tau's bin dir: searched first, and where downloads go. Without it nothing is downloaded. */
	binDir?: string;
	/** Release download settings, or `false` to never download (default: download into `binDir`). */
	download?: SearchBinaryDownloadOptions | false;
	/** `PATH` for the lookup, `TAU_OFFLINE` and Termux detection (default: `process.env` when resolving). */
	env?: NodeJS.ProcessEnv;
}

const CANDIDATES: Record<SearchBinaryName, string[]> = { rg: ["rg"], fd: ["fd", "fdfind"] };

/** Runs `<command> --version` (a bare name is looked up on `env.PATH`) and checks fd's flags. */
function probe(command: string, env: NodeJS.ProcessEnv): SearchBinary | undefined {
	const run = (flag: string) =>
		spawnSync(command, [flag], { encoding: "utf8", env, stdio: ["ignore", "pipe", "ignore"], windowsHide: true });
	const version = run("--version");
	if (version.error || version.status !== 0) return undefined;
	const help = run("--help");
	return { path: command, supportsNoRequireGit: (help.stdout ?? "").includes("--no-require-git") };
}

function findInstalled(
	name: SearchBinaryName,
	binDir: string | undefined,
	env: NodeJS.ProcessEnv,
): SearchBinary | undefined {
	const executable = process.platform === "win32" ? `${name}.exe` : name;
	const local = binDir ? join(binDir, executable) : undefined;
	for (const candidate of [...(local && existsSync(local) ? [local] : []), ...CANDIDATES[name]]) {
		const found = probe(candidate, env);
		if (found) return found;
	}
	return undefined;
}

async function resolveBinary(name: SearchBinaryName, options: SearchBinaryLocatorOptions): Promise<SearchBinaryLookup> {
	const env = options.env ?? process.env;
	const installed = findInstalled(name, options.binDir, env);
	if (installed) return { binary: installed };
	if (!options.binDir || options.download === false) return {};
	const download = await downloadSearchBinary(name, options.binDir, options.download ?? {}, env);
	if ("problem" in download) return { problem: download.problem };
	const binary = probe(download.path, env);
	return binary ? { binary } : { problem: `the downloaded ${name} does not run here` };
}

/**
 * Resolution order (docs/design/tools.md#search-binaries): the tau bin dir, PATH (`fd`, then `fdfind`), then a release
 * download into the bin dir. Each binary is resolved once per locator: concurrent calls share the
 * lookup in flight and a failed download is not retried; without a binary the tools use the
 * built-in search.
 */
export function createSearchBinaryLocator(options: SearchBinaryLocatorOptions = {}): SearchBinaryLocator {
	const lookups = new Map<SearchBinaryName, Promise<SearchBinaryLookup>>();
	return {
		locate(name) {
			let lookup = lookups.get(name);
			if (!lookup) {
				lookup = resolveBinary(name, options);
				lookups.set(name, lookup);
			}
			return lookup;
		},
	};
}

/** A locator that finds nothing: forces the built-in search. */
export const noSearchBinaries: SearchBinaryLocator = { locate: async () => ({}) };

let defaultLocator: SearchBinaryLocator | undefined;
/** The process-wide locator (tau bin dir, PATH, download), so each binary is resolved once per process. */
export function defaultSearchBinaries(): SearchBinaryLocator {
	defaultLocator ??= createSearchBinaryLocator({ binDir: getToolBinDir() });
	return defaultLocator;
}

/**
 * Waits for a lookup unless the tool call is aborted first; the lookup (and a download in
 * flight) carries on for later calls.
 */
export function awaitLookup(
	lookup: Promise<SearchBinaryLookup>,
	signal: AbortSignal | undefined,
): Promise<SearchBinaryLookup> {
	if (!signal) return lookup;
	return new Promise((resolve, reject) => {
		const onAbort = () => reject(new Error(ABORTED_MESSAGE));
		if (signal.aborted) return onAbort();
		signal.addEventListener("abort", onAbort, { once: true });
		lookup.then(
			(result) => {
				signal.removeEventListener("abort", onAbort);
				resolve(result);
			},
			(error: unknown) => {
				signal.removeEventListener("abort", onAbort);
				reject(error);
			},
		);
	});
}

/** The fallback notice, with the reason the binary could not be downloaded when there is one. */
export function fallbackNotice(notice: string, problem: string | undefined): string {
	return problem ? `${notice} (${problem})` : notice;
}
