import { existsSync, readFileSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { errorMessage } from "../../errors.js";
import { writeFileAtomicSync } from "../../fs/atomic-write.js";
import { type InstallLocation, packageInstallLocation } from "./install-paths.js";
import { installedVersion, isNewerVersion } from "./npm-versions.js";
import { runPackageCommand } from "./package-command.js";
import { PackageInstaller, type PackageInstallerOptions } from "./package-installer.js";
import { type ConfiguredPackage, PackageResolver, type ResolverSettings } from "./package-resolver.js";
import { type ParsedPackageSource, parsePackageSource } from "./package-source.js";

export interface PackageUpdateOptions extends PackageInstallerOptions {
	cwd: string;
	agentDir: string;
	settings: ResolverSettings;
	/** Update only the configured package with this identity; default: every package. */
	source?: string;
	offline?: boolean;
	/** Limit of each registry lookup (`npm view`); default 10 s. */
	lookupTimeoutMs?: number;
}

export interface PackageUpdateReport {
	/** `<source>[ (project)] <from> -> <to>` per package whose version or commit changed. */
	updated: string[];
	warnings: string[];
	/** What `tau update --extensions` prints at the end. */
	summary: string[];
}

type NpmSource = Extract<ParsedPackageSource, { kind: "npm" }>;
type GitSource = Extract<ParsedPackageSource, { kind: "git" }>;

interface Target<P extends ParsedPackageSource> {
	entry: ConfiguredPackage;
	parsed: P;
	location: InstallLocation;
}

/**
 * `No matching package found for <input>`, plus `Did you mean <source>?` when the input is a
 * configured package written without its prefix: an npm name or spec, or a git `host/path[@ref]`.
 */
function noMatchMessage(input: string, configured: readonly ConfiguredPackage[]): string {
	const message = `No matching package found for ${input}`;
	const suggestion = configured.find((entry) => {
		const parsed = parsePackageSource(entry.source, entry.baseDir);
		if (parsed.kind === "npm") {
			return input === parsed.name || input === `${parsed.name}${parsed.version ? `@${parsed.version}` : ""}`;
		}
		if (parsed.kind === "git") {
			const bare = `${parsed.host}/${parsed.path}`;
			return input === bare || input === `${bare}${parsed.ref ? `@${parsed.ref}` : ""}`;
		}
		return false;
	});
	return suggestion ? `${message}. Did you mean ${suggestion.source}?` : message;
}

/** Registry lookups give up after this long; the package then counts as worth updating. */
const LOOKUP_TIMEOUT_MS = 10_000;

/** Git checkouts updated at once. */
const GIT_CONCURRENCY = 4;

function resultLine(entry: ConfiguredPackage, from: string | undefined, to: string | undefined): string {
	return `${entry.source}${entry.scope === "project" ? " (project)" : ""} ${from ?? "(none)"} -> ${to ?? "(none)"}`;
}

/** The marker that survives an interrupted `git reset`/`clean`, so the next update finishes the job. */
export function updateMarkerPath(checkout: string): string {
	return join(dirname(checkout), `.${basename(checkout)}.tau-update-incomplete`);
}

function missingDeclaredDependency(checkout: string): boolean {
	try {
		const manifest = JSON.parse(readFileSync(join(checkout, "package.json"), "utf8")) as {
			dependencies?: Record<string, unknown>;
		};
		return Object.keys(manifest.dependencies ?? {}).some(
			(name) => !existsSync(join(checkout, "node_modules", ...name.split("/"))),
		);
	} catch {
		return false;
	}
}

async function inPool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
	const queue = [...items];
	const workers = Array.from({ length: Math.min(size, queue.length) }, async () => {
		for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
	});
	await Promise.all(workers);
}

/**
 * `tau update --extensions` (docs/design/resources.md#updating): pinned npm packages stay; other npm packages are
 * reinstalled per scope when the registry has a newer version (or the lookup failed); git
 * checkouts are reconciled to their ref or upstream, with a marker file so an interrupted update
 * is finished next time.
 */
export async function updatePackages(options: PackageUpdateOptions): Promise<PackageUpdateReport> {
	const report: PackageUpdateReport = { updated: [], warnings: [], summary: [] };
	if (options.offline) {
		report.summary.push("Skipped package updates (offline mode)");
		return report;
	}
	const resolver = new PackageResolver({ cwd: options.cwd, agentDir: options.agentDir, settings: options.settings });
	let entries = resolver.configuredPackages();
	if (options.source !== undefined) {
		const wanted = parsePackageSource(options.source, options.cwd).identity;
		entries = entries.filter((entry) => parsePackageSource(entry.source, entry.baseDir).identity === wanted);
		if (entries.length === 0) throw new Error(noMatchMessage(options.source, resolver.configuredPackages()));
	}
	await updateEntries(entries, options, report);
	if (report.updated.length > 0)
		report.summary.push(`Updated ${report.updated.length} package(s):`, ...report.updated);
	else if (report.warnings.length > 0) report.summary.push("No packages were updated, see the warnings above");
	else report.summary.push("Packages are already up to date");
	return report;
}

/** Install locations of the npm and git entries; refused locations become warnings. */
function collectTargets(
	entries: readonly ConfiguredPackage[],
	options: Omit<PackageUpdateOptions, "source">,
	warnings: string[],
): { npm: Target<NpmSource>[]; git: Target<GitSource>[] } {
	const npm: Target<NpmSource>[] = [];
	const git: Target<GitSource>[] = [];
	for (const entry of entries) {
		const parsed = parsePackageSource(entry.source, entry.baseDir);
		if (parsed.kind === "local") continue;
		let location: InstallLocation;
		try {
			location = packageInstallLocation(parsed, entry.scope, {
				agentDir: options.agentDir,
				cwd: options.cwd,
				projectTrusted: options.settings.isProjectTrusted(),
			});
		} catch (error) {
			warnings.push(`${entry.source}: ${errorMessage(error)}`);
			continue;
		}
		if (parsed.kind === "npm") npm.push({ entry, parsed, location });
		else git.push({ entry, parsed, location });
	}
	return { npm, git };
}

/** Updates installed (or installs missing) npm and git packages of `entries` into `report`. */
async function updateEntries(
	entries: readonly ConfiguredPackage[],
	options: Omit<PackageUpdateOptions, "source">,
	report: PackageUpdateReport,
	skipGit: (target: Target<GitSource>) => boolean = () => false,
): Promise<void> {
	const { npm, git } = collectTargets(entries, options, report.warnings);
	const installer = new PackageInstaller(options);
	await updateNpm(npm, installer, options, report);
	await inPool(
		git.filter((target) => !skipGit(target)),
		GIT_CONCURRENCY,
		(target) => updateGit(target, installer, options, report),
	);
}

/** A ref naming a commit (7-64 hex digits), as opposed to a branch or tag that may move. */
const COMMIT_REF = /^[0-9a-f]{7,64}$/i;

/**
 * Refreshes the installed `-e` packages (temporary scope) on start and `/reload`: unpinned npm
 * packages get a newer matching version, git checkouts follow their ref unless it is a commit
 * already checked out. A failure keeps the cached copy; offline nothing is refreshed.
 */
export async function refreshTemporaryPackages(
	sources: readonly string[],
	options: Omit<PackageUpdateOptions, "source">,
): Promise<void> {
	if (options.offline) return;
	const entries = sources
		.filter((source) => !source.startsWith("builtin:"))
		.map((source) => ({ source, scope: "temporary" as const, baseDir: options.cwd }));
	const headIsRef = (target: Target<GitSource>) => {
		const ref = target.parsed.ref;
		if (!ref || !COMMIT_REF.test(ref)) return false;
		try {
			const head = readFileSync(join(target.location.path, ".git", "HEAD"), "utf8").trim();
			return head.toLowerCase().startsWith(ref.toLowerCase());
		} catch {
			return false;
		}
	};
	const installedOnly = entries.filter((entry) => {
		const parsed = parsePackageSource(entry.source, entry.baseDir);
		if (parsed.kind === "local") return false;
		try {
			const location = packageInstallLocation(parsed, "temporary", {
				agentDir: options.agentDir,
				cwd: options.cwd,
				projectTrusted: options.settings.isProjectTrusted(),
			});
			return existsSync(location.path);
		} catch {
			return false;
		}
	});
	await updateEntries(installedOnly, options, { updated: [], warnings: [], summary: [] }, headIsRef);
}

/**
 * The startup notice's question (docs/design/resources.md#updating): which installed, unpinned packages have a
 * newer npm version or a remote head different from the local one. Offline: none; failed lookups
 * count as "no update".
 */
export async function checkForAvailableUpdates(options: Omit<PackageUpdateOptions, "source">): Promise<string[]> {
	if (options.offline) return [];
	const resolver = new PackageResolver({ cwd: options.cwd, agentDir: options.agentDir, settings: options.settings });
	const { npm, git } = collectTargets(resolver.configuredPackages(), options, []);
	const available: string[] = [];
	for (const target of npm) {
		const installed = installedVersion(target.location.path);
		if (target.parsed.pinned || installed === undefined) continue;
		const latest = await latestVersion(target, options);
		if (latest !== undefined && isNewerVersion(latest, installed)) available.push(target.entry.source);
	}
	for (const target of git) {
		if (target.parsed.pinned || !existsSync(target.location.path)) continue;
		const git = (...args: string[]) =>
			runPackageCommand("git", args, {
				cwd: target.location.path,
				output: "capture",
				timeoutMs: options.lookupTimeoutMs ?? LOOKUP_TIMEOUT_MS,
				...(options.env ? { env: options.env } : {}),
			}).then((text) => text.trim());
		try {
			const local = await git("rev-parse", "HEAD");
			const upstream = await git("rev-parse", "--abbrev-ref", "@{upstream}").catch(() => undefined);
			const ref = upstream?.startsWith("origin/") ? `refs/heads/${upstream.slice("origin/".length)}` : "HEAD";
			const remote = (await git("ls-remote", "origin", ref)).split(/\s/)[0];
			if (remote && remote !== local) available.push(target.entry.source);
		} catch {
			// An unreachable remote is no update notice.
		}
	}
	return available;
}

async function latestVersion(target: Target<NpmSource>, options: PackageUpdateOptions): Promise<string | undefined> {
	const [command, ...leading] = options.npmCommand;
	const spec = target.parsed.version ? `${target.parsed.name}@${target.parsed.version}` : target.parsed.name;
	try {
		const text = await runPackageCommand(command!, [...leading, "view", spec, "version", "--json"], {
			cwd: options.cwd,
			output: "capture",
			timeoutMs: options.lookupTimeoutMs ?? LOOKUP_TIMEOUT_MS,
			...(options.env ? { env: options.env } : {}),
		});
		const parsed = JSON.parse(text) as unknown;
		// A range answers with every matching version, oldest first.
		const latest = Array.isArray(parsed) ? parsed.at(-1) : parsed;
		return typeof latest === "string" ? latest : undefined;
	} catch {
		return undefined;
	}
}

async function updateNpm(
	targets: readonly Target<NpmSource>[],
	installer: PackageInstaller,
	options: PackageUpdateOptions,
	report: PackageUpdateReport,
): Promise<void> {
	const byPrefix = new Map<string, { target: Target<NpmSource>; from?: string; latest?: string }[]>();
	for (const target of targets) {
		if (target.parsed.pinned) continue;
		const from = installedVersion(target.location.path);
		const latest = await latestVersion(target, options);
		if (from !== undefined && latest !== undefined && !isNewerVersion(latest, from)) continue;
		const prefix = target.location.prefix ?? dirname(target.location.path);
		const batch = byPrefix.get(prefix) ?? [];
		batch.push({ target, ...(from ? { from } : {}), ...(latest ? { latest } : {}) });
		byPrefix.set(prefix, batch);
	}
	for (const [prefix, batch] of byPrefix) {
		const specs = batch.map(({ target }) =>
			target.parsed.version ? `${target.parsed.name}@${target.parsed.version}` : `${target.parsed.name}@latest`,
		);
		for (const { target } of batch)
			options.onProgress?.({ type: "start", action: "update", source: target.entry.source });
		try {
			await installer.installNpmSpecs(specs, prefix);
		} catch (error) {
			for (const { target } of batch) {
				const message = errorMessage(error);
				options.onProgress?.({ type: "error", action: "update", source: target.entry.source, message });
				report.warnings.push(`${target.entry.source}: ${message}`);
			}
			continue;
		}
		for (const { target, from, latest } of batch) {
			options.onProgress?.({ type: "complete", action: "update", source: target.entry.source });
			const to = installedVersion(target.location.path);
			if (to !== from) report.updated.push(resultLine(target.entry, from, to));
			else if (latest !== undefined && from !== undefined && isNewerVersion(latest, from)) {
				const warning = `${target.entry.source}: still ${from} although ${latest} was announced (registry metadata may be stale)`;
				options.onProgress?.({ type: "progress", action: "update", source: target.entry.source, message: warning });
				report.warnings.push(warning);
			}
		}
	}
}

async function updateGit(
	target: Target<GitSource>,
	installer: PackageInstaller,
	options: PackageUpdateOptions,
	report: PackageUpdateReport,
): Promise<void> {
	const { entry, parsed, location } = target;
	const checkout = location.path;
	const git = (...args: string[]) =>
		runPackageCommand("git", args, {
			cwd: checkout,
			output: "capture",
			...(options.env ? { env: options.env } : {}),
		});
	const head = async () => (await git("rev-parse", "HEAD")).trim();
	options.onProgress?.({ type: "start", action: "pull", source: entry.source });
	try {
		if (!existsSync(checkout)) {
			await installer.install(entry.source, parsed, location);
			report.updated.push(resultLine(entry, undefined, (await head()).slice(0, 7)));
			options.onProgress?.({ type: "complete", action: "pull", source: entry.source });
			return;
		}
		const from = await head();
		let targetRef: string;
		if (parsed.ref) {
			await git("fetch", "origin", parsed.ref);
			targetRef = "FETCH_HEAD";
		} else {
			const upstream = await git("rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}").then(
				(text) => text.trim(),
				() => undefined,
			);
			let remoteRef = upstream?.startsWith("origin/") ? upstream : undefined;
			if (!remoteRef) {
				await git("remote", "set-head", "origin", "-a");
				remoteRef = (await git("rev-parse", "--abbrev-ref", "origin/HEAD")).trim();
			}
			const branch = remoteRef.slice("origin/".length);
			await git("fetch", "--prune", "--no-tags", "origin", `+refs/heads/${branch}:refs/remotes/origin/${branch}`);
			targetRef = remoteRef;
		}
		const to = (await git("rev-parse", `${targetRef}^{commit}`)).trim();
		const marker = updateMarkerPath(checkout);
		if (to === from && !existsSync(marker)) {
			if (missingDeclaredDependency(checkout)) await installer.installProductionDependencies(checkout);
		} else {
			writeFileAtomicSync(marker, `${to}\n`);
			await git("reset", "--hard", to);
			let cleaned = true;
			try {
				await git("clean", "-fdx");
			} catch (error) {
				cleaned = false;
				report.warnings.push(
					`${entry.source}: could not clean the checkout, files may be in use (${errorMessage(error)})`,
				);
			}
			if (existsSync(join(checkout, "package.json"))) await installer.installProductionDependencies(checkout);
			if (cleaned) rmSync(marker, { force: true });
		}
		if (to !== from) report.updated.push(resultLine(entry, from.slice(0, 7), to.slice(0, 7)));
		options.onProgress?.({ type: "complete", action: "pull", source: entry.source });
	} catch (error) {
		const message = errorMessage(error);
		options.onProgress?.({ type: "error", action: "pull", source: entry.source, message });
		report.warnings.push(`${entry.source}: ${message}`);
	}
}
