import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { APP_NAME } from "../../../config/app-identity.js";
import { getProjectConfigDir } from "../../../config/paths.js";
import { resolveResourceEntries } from "../../../config/settings/resource-paths.js";
import type { PackageSource, PackageSourceObject, Settings } from "../../../config/settings/types.js";
import { errorMessage } from "../../errors.js";
import { pathKey } from "../loader/path-key.js";
import { collectExtensionEntries, collectFilesByExtension, collectSkillEntries } from "../scan/directory-scan.js";
import { projectAgentsSkillDirs } from "../trust/project-resources.js";
import type { PathMetadata, ResourceDiagnostic, ResourceScope } from "../types.js";
import { type InstallLocation, packageInstallLocation } from "./install-paths.js";
import { installedVersion, satisfiesVersion } from "./npm-versions.js";
import {
	collectByKind,
	collectPackageResources,
	PACKAGE_RESOURCE_KINDS,
	type PackageResourceKind,
} from "./package-resources.js";
import { parsePackageSource } from "./package-source.js";
import { applyPatterns, isEnabledByOverrides, isPatternEntry, lastBuiltinOverride } from "./resource-patterns.js";

/** One resolved resource file (or `builtin:<name>`) with where it came from. */
export interface ResolvedResource {
	path: string;
	enabled: boolean;
	metadata: PathMetadata;
}

/** The resources a package resolution found, by kind (extensions, skills, prompts, themes). */
export type ResolvedPaths = Record<PackageResourceKind, ResolvedResource[]>;

/** The layered settings the resolver reads (a `SettingsManager` satisfies it). */
export interface ResolverSettings {
	getGlobalSettings(): Settings;
	getProjectSettings(): Settings;
	isProjectTrusted(): boolean;
}

export interface PackageResolverOptions {
	cwd: string;
	agentDir: string;
	settings: ResolverSettings;
	/** Names of the built-in extensions the host can instantiate (`builtin:<name>`). */
	builtinExtensionNames?: readonly string[];
	/** Home directory for `~/.agents/skills` (tests point it into a temp dir). */
	homeDir?: string;
	/** Why a package source could not be installed this reload (source -> message). */
	installFailures?: ReadonlyMap<string, string>;
}

/** A `packages` entry after identity dedupe, with the directory its relative paths resolve against. */
export interface ConfiguredPackage {
	source: string;
	scope: ResourceScope;
	baseDir: string;
}

/** A `packages` entry as resolution sees it. */
interface PackageEntry {
	source: PackageSource;
	scope: ResourceScope;
	baseDir: string;
	/** A project delta (`autoload: false`) adjusts the user's package: it resolves inside the user's install. */
	installedBy?: ConfiguredPackage;
}

/** An npm or git package of the current configuration that is not installed yet. */
export interface MissingPackage {
	source: string;
	parsed: Exclude<ReturnType<typeof parsePackageSource>, { kind: "local" }>;
	location: InstallLocation;
}

function isDelta(source: PackageSource): boolean {
	return typeof source === "object" && source !== null && source.autoload === false;
}

/** Precedence rank (lower wins) of each source class. */
const RANK = { projectSettings: 0, projectAuto: 1, userSettings: 2, userAuto: 3, package: 4, builtin: 5 } as const;

interface RankedResource extends ResolvedResource {
	rank: number;
}

function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/**
 * Resolves every configured and conventional resource for the current trust state: packages,
 * settings entries, conventional directories and built-ins, ordered by precedence
 * (project explicit > project auto > user explicit > user auto > packages > built-ins) and
 * deduplicated by path key. Only local package sources are supported here.
 */
export class PackageResolver {
	private readonly homeDir: string;

	constructor(private readonly options: PackageResolverOptions) {
		this.homeDir = options.homeDir ?? homedir();
	}

	resolve(): { resolved: ResolvedPaths; diagnostics: ResourceDiagnostic[] } {
		const diagnostics: ResourceDiagnostic[] = [];
		const ranked: Record<PackageResourceKind, RankedResource[]> = {
			extensions: [],
			skills: [],
			prompts: [],
			themes: [],
		};
		const add = (kind: PackageResourceKind, rank: number, path: string, enabled: boolean, metadata: PathMetadata) =>
			ranked[kind].push({ path, enabled, metadata, rank });

		for (const item of this.packageEntries()) {
			const resolution = this.resolvePackage(item);
			if ("error" in resolution) {
				diagnostics.push({ type: "warning", message: resolution.error });
				continue;
			}
			for (const kind of PACKAGE_RESOURCE_KINDS) {
				for (const record of resolution.resources[kind])
					add(kind, RANK.package, record.path, record.enabled, resolution.metadata);
			}
		}
		this.addSettingsEntries(add);
		this.addAutoDiscovered(add);
		this.addBuiltins(add);

		const resolved: ResolvedPaths = { extensions: [], skills: [], prompts: [], themes: [] };
		for (const kind of PACKAGE_RESOURCE_KINDS) {
			const seenExact = new Set<string>();
			const firstInserted = ranked[kind].filter((entry) => !seenExact.has(entry.path) && seenExact.add(entry.path));
			const seenKeys = new Set<string>();
			for (const entry of firstInserted.sort((a, b) => a.rank - b.rank)) {
				const key = pathKey(entry.path);
				if (seenKeys.has(key)) continue;
				seenKeys.add(key);
				resolved[kind].push({ path: entry.path, enabled: entry.enabled, metadata: entry.metadata });
			}
		}
		return { resolved, diagnostics };
	}

	/**
	 * Resources of CLI `-e` sources (temporary scope): `builtin:<name>` kept as is, a local file
	 * is one extension, a local directory is a package (its skills, prompts and themes included).
	 */
	resolveExtensionSources(sources: readonly string[]): { resolved: ResolvedPaths; diagnostics: ResourceDiagnostic[] } {
		const diagnostics: ResourceDiagnostic[] = [];
		const resolved: ResolvedPaths = { extensions: [], skills: [], prompts: [], themes: [] };
		const cli: PathMetadata = { source: "cli", scope: "temporary", origin: "top-level" };
		for (const source of sources) {
			if (source.startsWith("builtin:")) {
				resolved.extensions.push({ path: source, enabled: true, metadata: { ...cli, source: "builtin" } });
				continue;
			}
			const parsed = parsePackageSource(source, this.options.cwd);
			if (parsed.kind === "local" && parsed.path && !isDirectory(parsed.path)) {
				resolved.extensions.push({
					path: parsed.path,
					enabled: true,
					metadata: { ...cli, baseDir: dirname(parsed.path) },
				});
				continue;
			}
			const resolution = this.resolvePackage({ source, scope: "temporary", baseDir: this.options.cwd });
			if ("error" in resolution) {
				diagnostics.push({ type: "warning", message: resolution.error });
				continue;
			}
			for (const kind of PACKAGE_RESOURCE_KINDS) {
				for (const record of resolution.resources[kind]) {
					resolved[kind].push({ path: record.path, enabled: record.enabled, metadata: resolution.metadata });
				}
			}
		}
		return { resolved, diagnostics };
	}

	/**
	 * npm and git packages of the settings (project entries only when trusted) and of the CLI `-e`
	 * sources whose install location does not exist yet; sources whose location is refused are
	 * left to `resolve()`, which reports them.
	 */
	missingPackages(cliSources: readonly string[]): MissingPackage[] {
		const candidates: ConfiguredPackage[] = [
			...this.configuredPackages(),
			...cliSources
				.filter((source) => !source.startsWith("builtin:"))
				.map((source) => ({ source, scope: "temporary" as const, baseDir: this.options.cwd })),
		];
		const missing: MissingPackage[] = [];
		for (const { source, scope, baseDir } of candidates) {
			const parsed = parsePackageSource(source, baseDir);
			if (parsed.kind === "local") continue;
			let location: InstallLocation;
			try {
				location = packageInstallLocation(parsed, scope, {
					agentDir: this.options.agentDir,
					cwd: this.options.cwd,
					projectTrusted: this.options.settings.isProjectTrusted(),
				});
			} catch {
				continue;
			}
			// An npm package whose installed version no longer matches the configured one is reinstalled.
			const outdated =
				parsed.kind === "npm" &&
				parsed.version !== undefined &&
				existsSync(location.path) &&
				satisfiesVersion(installedVersion(location.path) ?? "", parsed.version) === false;
			if (!existsSync(location.path) || outdated) missing.push({ source, parsed, location });
		}
		return missing;
	}

	/**
	 * The `packages` of the settings (project entries only when trusted) after identity dedupe. A
	 * project delta over a user package is left out: it installs and updates nothing of its own.
	 */
	configuredPackages(): ConfiguredPackage[] {
		return this.packageEntries()
			.filter((entry) => entry.installedBy === undefined)
			.map((entry) => ({
				source: typeof entry.source === "string" ? entry.source : entry.source.source,
				scope: entry.scope,
				baseDir: entry.baseDir,
			}));
	}

	/** Package entries after identity dedupe: project entries first; a project entry replaces a user one. */
	private packageEntries(): PackageEntry[] {
		const { settings, cwd, agentDir } = this.options;
		const layers: [ResourceScope, Settings, string][] = [
			["project", settings.getProjectSettings(), getProjectConfigDir(cwd)],
			["user", settings.getGlobalSettings(), agentDir],
		];
		const byIdentity = new Map<string, PackageEntry>();
		const userBehindDelta: PackageEntry[] = [];
		for (const [scope, layer, baseDir] of layers) {
			const packages = Array.isArray(layer.packages) ? layer.packages : [];
			for (const source of packages) {
				const text = typeof source === "string" ? source : (source as PackageSourceObject | undefined)?.source;
				if (typeof text !== "string") continue;
				const identity = parsePackageSource(text, baseDir).identity;
				const existing = byIdentity.get(identity);
				if (existing && scope === "user" && existing.scope === "project" && isDelta(existing.source)) {
					// A project `autoload: false` entry only adjusts the user's package: keep both.
					userBehindDelta.push({ source, scope, baseDir });
					existing.installedBy = { source: text, scope, baseDir };
					continue;
				}
				if (existing && !(scope === "project" && existing.scope === "project")) continue;
				byIdentity.set(identity, { source, scope, baseDir });
			}
		}
		return [...byIdentity.values(), ...userBehindDelta];
	}

	private resolvePackage(
		item: PackageEntry,
	): { resources: ReturnType<typeof collectPackageResources>; metadata: PathMetadata } | { error: string } {
		const { source: entry, scope } = item;
		const source = typeof entry === "string" ? entry : entry.source;
		const filter = typeof entry === "string" ? undefined : entry;
		// Where the package lives: its own install, or for a delta the user's install it adjusts.
		const installed = item.installedBy ?? { source, scope, baseDir: item.baseDir };
		const parsed = parsePackageSource(installed.source, installed.baseDir);
		let root: string | undefined;
		try {
			root =
				parsed.kind === "local"
					? parsed.path
					: packageInstallLocation(parsed, installed.scope, {
							agentDir: this.options.agentDir,
							cwd: this.options.cwd,
							projectTrusted: this.options.settings.isProjectTrusted(),
						}).path;
		} catch (error) {
			return { error: `Extension package "${source}": ${errorMessage(error)}` };
		}
		const remedy =
			scope === "temporary"
				? "Check the source and try again."
				: `Run "${APP_NAME} remove ${source}${scope === "project" ? " --local" : ""}" to remove it from settings.json.`;
		if (!root || !existsSync(root)) {
			const reason =
				parsed.kind === "local"
					? `Path does not exist: ${parsed.path}`
					: (this.options.installFailures?.get(source) ?? "not installed");
			return { error: `Extension package "${source}": failed to install (${reason}). ${remedy}` };
		}
		const metadata: PathMetadata = { source, scope, origin: "package", baseDir: root, packageRoot: root };
		if (!isDirectory(root)) {
			const resources = { extensions: [{ path: root, enabled: true }], skills: [], prompts: [], themes: [] };
			return { resources, metadata };
		}
		const resources = collectPackageResources(root, filter);
		if (resources.changelogPath) metadata.changelogPath = resources.changelogPath;
		const offersNothing = PACKAGE_RESOURCE_KINDS.every((kind) => resources[kind].length === 0);
		// A local directory without manifest or conventional folders is itself an extension.
		if (offersNothing && parsed.kind === "local") resources.extensions.push({ path: root, enabled: true });
		return { resources, metadata };
	}

	private addSettingsEntries(
		add: (kind: PackageResourceKind, rank: number, path: string, enabled: boolean, metadata: PathMetadata) => void,
	): void {
		const { settings, cwd, agentDir } = this.options;
		for (const kind of PACKAGE_RESOURCE_KINDS) {
			const entries = resolveResourceEntries(settings, kind, { agentDir, cwd });
			for (const scope of ["project", "global"] as const) {
				const layerEntries = entries.filter((entry) => entry.scope === scope);
				const baseDir = scope === "project" ? getProjectConfigDir(cwd) : agentDir;
				const files: string[] = [];
				for (const entry of layerEntries) {
					if (isPatternEntry(entry.entry) || entry.path.startsWith("builtin:") || !existsSync(entry.path))
						continue;
					files.push(...(isDirectory(entry.path) ? collectByKind(entry.path, kind) : [entry.path]));
				}
				const patterns = layerEntries.filter((entry) => isPatternEntry(entry.entry)).map((entry) => entry.entry);
				const enabled = applyPatterns(files, patterns, baseDir);
				const metadata: PathMetadata = {
					source: "local",
					scope: scope === "project" ? "project" : "user",
					origin: "top-level",
					baseDir,
				};
				const rank = scope === "project" ? RANK.projectSettings : RANK.userSettings;
				for (const file of files) add(kind, rank, file, enabled.has(file), metadata);
			}
		}
	}

	private overridePatterns(kind: PackageResourceKind, scope: "project" | "global"): string[] {
		const { settings, cwd, agentDir } = this.options;
		return resolveResourceEntries(settings, kind, { agentDir, cwd })
			.filter((entry) => entry.scope === scope && /^[!+-]/.test(entry.entry))
			.map((entry) => entry.entry);
	}

	private addAutoDiscovered(
		add: (kind: PackageResourceKind, rank: number, path: string, enabled: boolean, metadata: PathMetadata) => void,
	): void {
		const { settings, cwd, agentDir } = this.options;
		const layers: { scope: "project" | "global"; base: string; rank: number }[] = [];
		if (settings.isProjectTrusted())
			layers.push({ scope: "project", base: getProjectConfigDir(cwd), rank: RANK.projectAuto });
		layers.push({ scope: "global", base: agentDir, rank: RANK.userAuto });
		for (const { scope, base, rank } of layers) {
			const metadataScope: ResourceScope = scope === "project" ? "project" : "user";
			const collect = (kind: PackageResourceKind, files: string[], baseDir: string) => {
				const patterns = this.overridePatterns(kind, scope);
				const metadata: PathMetadata = { source: "auto", scope: metadataScope, origin: "top-level", baseDir };
				for (const file of files) add(kind, rank, file, isEnabledByOverrides(file, patterns, baseDir), metadata);
			};
			const dir = (name: string) => join(base, name);
			collect("extensions", isDirectory(dir("extensions")) ? collectExtensionEntries(dir("extensions")) : [], base);
			collect("skills", isDirectory(dir("skills")) ? collectSkillEntries(dir("skills"), "pi") : [], base);
			const agentsDirs =
				scope === "project" ? projectAgentsSkillDirs(cwd, this.homeDir) : [join(this.homeDir, ".agents", "skills")];
			for (const agentsDir of agentsDirs.filter(isDirectory)) {
				collect("skills", collectSkillEntries(agentsDir, "agents"), dirname(agentsDir));
			}
			collect(
				"prompts",
				isDirectory(dir("prompts")) ? collectFilesByExtension(dir("prompts"), ".md", false) : [],
				base,
			);
			collect(
				"themes",
				isDirectory(dir("themes")) ? collectFilesByExtension(dir("themes"), ".json", false) : [],
				base,
			);
		}
	}

	private addBuiltins(
		add: (kind: PackageResourceKind, rank: number, path: string, enabled: boolean, metadata: PathMetadata) => void,
	): void {
		const projectPatterns = this.overridePatterns("extensions", "project");
		const userPatterns = this.overridePatterns("extensions", "global");
		for (const name of this.options.builtinExtensionNames ?? []) {
			const path = `builtin:${name}`;
			const projectDecision = lastBuiltinOverride(path, projectPatterns);
			const enabled = projectDecision ?? isEnabledByOverrides(path, userPatterns, this.options.agentDir);
			const scope: ResourceScope = projectDecision === undefined ? "user" : "project";
			add("extensions", RANK.builtin, path, enabled, { source: "builtin", scope, origin: "top-level" });
		}
	}
}
