/** The external search programs tau can locate or download. */
export type SearchBinaryName = "rg" | "fd";

/** Where each search tool publishes its release archives (docs/design/tools.md#search-binaries). */
export const SEARCH_RELEASES: Record<
	SearchBinaryName,
	{ label: string; repository: string; assetPrefix: string; termuxPackage: string }
> = {
	rg: { label: "ripgrep", repository: "BurntSushi/ripgrep", assetPrefix: "ripgrep-", termuxPackage: "ripgrep" },
	fd: { label: "fd", repository: "sharkdp/fd", assetPrefix: "fd-", termuxPackage: "fd" },
};

/** The machine a binary is downloaded for. */
export interface ReleaseHost {
	platform: string;
	arch: string;
	env: NodeJS.ProcessEnv;
}

/** What to download for a host: the archive kind, target triples (preferred first) and the file inside. */
export interface ReleaseTarget {
	archive: "tar.gz" | "zip";
	triples: string[];
	executable: string;
}

/** One entry of a GitHub release's `assets`. */
export interface ReleaseAsset {
	name: string;
	browser_download_url: string;
}

/** Rust target CPUs: only the host's own, so an arm64 machine never gets an x86-64 binary. */
const CPUS: Record<string, string> = { x64: "x86_64", arm64: "aarch64" };

/**
 * Target systems, preferred first. Linux prefers the static musl build; the glibc build is taken
 * only when a release has no musl build for that CPU (ripgrep 14 publishes aarch64 for glibc only).
 */
const SYSTEMS: Record<string, { suffixes: string[]; archive: ReleaseTarget["archive"] }> = {
	linux: { suffixes: ["unknown-linux-musl", "unknown-linux-gnu"], archive: "tar.gz" },
	darwin: { suffixes: ["apple-darwin"], archive: "tar.gz" },
	win32: { suffixes: ["pc-windows-msvc"], archive: "zip" },
};

/** Termux reports `linux` on some Node builds, so its environment is checked too. */
function isTermux(host: ReleaseHost): boolean {
	return (
		host.platform === "android" ||
		host.env.TERMUX_VERSION !== undefined ||
		(host.env.PREFIX ?? "").includes("com.termux")
	);
}

/** The release target for a host, or why tau does not download there (a short, user-facing reason). */
export function releaseTarget(name: SearchBinaryName, host: ReleaseHost): { target: ReleaseTarget } | { skip: string } {
	const release = SEARCH_RELEASES[name];
	if (isTermux(host)) return { skip: `on Termux install it with \`pkg install ${release.termuxPackage}\`` };
	const cpu = CPUS[host.arch];
	const system = SYSTEMS[host.platform];
	if (!cpu || !system) return { skip: `no ${release.label} download for ${host.platform}/${host.arch}` };
	return {
		target: {
			archive: system.archive,
			triples: system.suffixes.map((suffix) => `${cpu}-${suffix}`),
			executable: host.platform === "win32" ? `${name}.exe` : name,
		},
	};
}

/** The asset for the first triple the release provides; checksum files and packages never match. */
export function pickReleaseAsset(
	name: SearchBinaryName,
	assets: readonly ReleaseAsset[],
	target: ReleaseTarget,
): ReleaseAsset | undefined {
	const { assetPrefix } = SEARCH_RELEASES[name];
	for (const triple of target.triples) {
		const suffix = `-${triple}.${target.archive}`;
		const asset = assets.find(
			(candidate) => candidate.name.startsWith(assetPrefix) && candidate.name.endsWith(suffix),
		);
		if (asset) return asset;
	}
	return undefined;
}
