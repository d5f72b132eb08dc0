import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { isOffline } from "../../../config/env.js";
import { PRIVATE_DIR_MODE } from "../../../config/paths.js";
import { errorMessage } from "../../errors.js";
import { writeFileAtomic } from "../../fs/atomic-write.js";
import { extractFromTarGz, extractFromZip } from "./release-archive.js";
import {
	pickReleaseAsset,
	type ReleaseAsset,
	releaseTarget,
	SEARCH_RELEASES,
	type SearchBinaryName,
} from "./release-assets.js";

/** How release binaries are fetched; every field has a production default and exists for tests and hosts. */
export interface SearchBinaryDownloadOptions {
	/** GitHub REST API root (default `https://api.github.com`). */
	apiBaseUrl?: string;
	fetch?: typeof globalThis.fetch;
	/** The machine to download for (default: this one). */
	platform?: string;
	arch?: string;
	/** Release metadata request timeout (default 10 s). */
	metadataTimeoutMs?: number;
	/** Archive download timeout (default 120 s). */
	downloadTimeoutMs?: number;
}

/** Where the downloaded binary was installed, or a short reason why none was. */
export type SearchBinaryDownload = { path: string } | { problem: string };

const DEFAULT_API_BASE_URL = "https://api.github.com";
const METADATA_TIMEOUT_MS = 10_000;
const DOWNLOAD_TIMEOUT_MS = 120_000;

interface LatestRelease {
	tag_name?: string;
	assets?: ReleaseAsset[];
}

/**
 * Fetches `url` and reads its body under one timeout. A failure reads as `<what>: HTTP 404`,
 * `<what>: timed out after 10s` or `<what>: ECONNREFUSED`.
 */
async function fetchBody<T>(
	fetchImpl: typeof globalThis.fetch,
	url: string,
	what: string,
	timeoutMs: number,
	read: (response: Response) => Promise<T>,
): Promise<T> {
	let status: number;
	try {
		const response = await fetchImpl(url, {
			headers: { accept: "application/vnd.github+json, application/octet-stream", "user-agent": "tau-coding-agent" },
			signal: AbortSignal.timeout(timeoutMs),
		});
		if (response.ok) return await read(response);
		status = response.status;
		await response.body?.cancel();
	} catch (error) {
		throw new Error(`${what}: ${reason(error, timeoutMs)}`);
	}
	throw new Error(`${what}: HTTP ${status}`);
}

function reason(error: unknown, timeoutMs: number): string {
	if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
		return `timed out after ${timeoutMs / 1000}s`;
	const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
	if (typeof cause?.code === "string") return cause.code;
	return errorMessage(error);
}

/** Concurrent tau processes each install a complete binary; the last rename wins, nobody runs half a file. */
async function installAtomically(binDir: string, executable: string, contents: Buffer): Promise<string> {
	await mkdir(binDir, { recursive: true, mode: PRIVATE_DIR_MODE });
	const target = join(binDir, executable);
	await writeFileAtomic(target, contents, { newFileMode: 0o755 });
	return target;
}

/**
 * Downloads the latest ripgrep/fd release for this machine into `binDir` (docs/design/tools.md#search-binaries).
 * Never throws: offline mode, Termux, unsupported machines and every network or archive failure
 * come back as a short `problem`, and no request is made when the download is skipped.
 */
export async function downloadSearchBinary(
	name: SearchBinaryName,
	binDir: string,
	options: SearchBinaryDownloadOptions,
	env: NodeJS.ProcessEnv,
): Promise<SearchBinaryDownload> {
	if (isOffline(env)) return { problem: "offline mode" };
	const resolved = releaseTarget(name, {
		platform: options.platform ?? process.platform,
		arch: options.arch ?? process.arch,
		env,
	});
	if ("skip" in resolved) return { problem: resolved.skip };
	const { target } = resolved;
	const fetchImpl = options.fetch ?? globalThis.fetch;
	const metadataTimeout = options.metadataTimeoutMs ?? METADATA_TIMEOUT_MS;
	const downloadTimeout = options.downloadTimeoutMs ?? DOWNLOAD_TIMEOUT_MS;
	const base = (options.apiBaseUrl ?? DEFAULT_API_BASE_URL).replace(/\/+$/, "");
	try {
		const url = `${base}/repos/${SEARCH_RELEASES[name].repository}/releases/latest`;
		const release = await fetchBody(
			fetchImpl,
			url,
			"release metadata",
			metadataTimeout,
			(response) => response.json() as Promise<LatestRelease>,
		);
		const asset = pickReleaseAsset(name, release.assets ?? [], target);
		if (!asset)
			return { problem: `download failed: release ${release.tag_name ?? "?"} has no ${target.triples[0]} build` };
		const archive = new Uint8Array(
			await fetchBody(fetchImpl, asset.browser_download_url, asset.name, downloadTimeout, (response) =>
				response.arrayBuffer(),
			),
		);
		const binary =
			target.archive === "zip"
				? extractFromZip(archive, target.executable)
				: extractFromTarGz(archive, target.executable);
		return { path: await installAtomically(binDir, target.executable, binary) };
	} catch (error) {
		return { problem: `download failed: ${errorMessage(error)}` };
	}
}
