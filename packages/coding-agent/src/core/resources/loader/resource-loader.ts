import { existsSync } from "node:fs";
import { join } from "node:path";
import { isOffline } from "../../../config/env.js";
import { getProjectConfigDir } from "../../../config/paths.js";
import { SettingsManager } from "../../../config/settings/manager.js";
import { npmCommandOrDefault } from "../../../config/settings/normalize.js";
import { errorMessage } from "../../errors.js";
import { type ContextFile, discoverContextFiles } from "../context-files/context-files.js";
import { hostDependencyWarnings } from "../packages/host-dependencies.js";
import { PackageInstaller, type PackageProgressEvent } from "../packages/package-installer.js";
import { PackageResolver, type ResolvedPaths, type ResolvedResource } from "../packages/package-resolver.js";
import { refreshTemporaryPackages } from "../packages/package-updater.js";
import { loadPromptTemplates, type PromptTemplate } from "../prompt-templates/prompt-templates.js";
import { loadSkillsFromSources, type Skill } from "../skills/skills.js";
import type { Theme } from "../themes/theme.js";
import {
	type PathMetadata,
	type ResourceDiagnostic,
	type ResourceExtensionPaths,
	type SourceInfo,
	sourceInfoFor,
} from "../types.js";
import {
	type ExtensionLoadItem,
	type InlineExtension,
	inlineLoadItems,
	type LoadExtensions,
	type LoadExtensionsResult,
	loadFinalExtensionSet,
	settleExtensionSet,
} from "./extension-set.js";
import { pathKey, resolveResourcePath } from "./path-key.js";
import { discoverPromptFile, resolvePromptSource } from "./prompt-files.js";

/** The theme file loader, imported on first need. */
let themeFiles: typeof import("../themes/theme-files.js") | undefined;

/**
 * The built-in extension loader, imported on first use: the extension runtime (and jiti behind it)
 * stays unloaded until a reload asks for it, and the resource layer keeps no static edge to it.
 */
const builtinExtensionLoader: LoadExtensions = async (request) => {
	const { defaultExtensionLoader } = await import("../../extensions/loader/load-extensions.js");
	return defaultExtensionLoader(request);
};

/** Everything a session needs from the resource layer; SDK hosts may implement their own. */
export interface ResourceLoader {
	getExtensions(): LoadExtensionsResult;
	getSkills(): { skills: Skill[]; diagnostics: ResourceDiagnostic[] };
	getPrompts(): { prompts: PromptTemplate[]; diagnostics: ResourceDiagnostic[] };
	getThemes(): { themes: Theme[]; diagnostics: ResourceDiagnostic[] };
	getAgentsFiles(): { agentsFiles: ContextFile[] };
	/** Replacement prompt text (SYSTEM.md or `--system-prompt`). */
	getSystemPrompt(): string | undefined;
	/** Set only when the replacement prompt came from an existing file. */
	getSystemPromptSource(): { path: string } | undefined;
	getAppendSystemPrompt(): string[];
	getAppendSystemPromptSources(): { path: string }[];
	extendResources(paths: ResourceExtensionPaths): void;
	reload(options?: ReloadOptions): Promise<void>;
}

export interface ReloadOptions {
	/** Decides project trust after the pre-trust pass (user and CLI extensions loaded). */
	resolveProjectTrust?: (input: { extensionsResult: LoadExtensionsResult }) => Promise<boolean>;
}

type Kind = "skills" | "prompts" | "themes";

export interface DefaultResourceLoaderOptions {
	cwd: string;
	agentDir: string;
	/** Default: `SettingsManager.create(cwd, agentDir)`, created on the first `reload()`. */
	settingsManager?: SettingsManager;
	/** Shared with extensions as `pi.events`; passed through to `loadExtensions`. */
	eventBus?: unknown;
	/** Imports and runs extensions; default: the built-in extension loader (`defaultExtensionLoader`). */
	loadExtensions?: LoadExtensions;
	/** Home directory for `~/.agents/skills` (defaults to the OS home). */
	homeDir?: string;
	/** Output of git/npm while installing missing packages; default `capture` (kept for error messages). */
	packageCommandOutput?: "inherit" | "capture";
	onPackageProgress?: (event: PackageProgressEvent) => void;
	/** `-e` values: paths (already resolved against the process cwd), package sources, `builtin:<name>`. */
	additionalExtensionPaths?: string[];
	additionalSkillPaths?: string[];
	additionalPromptTemplatePaths?: string[];
	additionalThemePaths?: string[];
	/** Inline factories; entries with `builtin: true` supply the code of `builtin:<name>`. */
	extensionFactories?: InlineExtension[];
	noExtensions?: boolean;
	disabledBuiltinExtensions?: string[];
	noSkills?: boolean;
	noPromptTemplates?: boolean;
	noThemes?: boolean;
	noContextFiles?: boolean;
	/** `--system-prompt`: text or a file path. */
	systemPrompt?: string;
	/** `--append-system-prompt` values in order: text or file paths. */
	appendSystemPrompt?: string[];
	extensionsOverride?(base: LoadExtensionsResult): LoadExtensionsResult;
	skillsOverride?(base: { skills: Skill[]; diagnostics: ResourceDiagnostic[] }): {
		skills: Skill[];
		diagnostics: ResourceDiagnostic[];
	};
	promptsOverride?(base: { prompts: PromptTemplate[]; diagnostics: ResourceDiagnostic[] }): {
		prompts: PromptTemplate[];
		diagnostics: ResourceDiagnostic[];
	};
	themesOverride?(base: { themes: Theme[]; diagnostics: ResourceDiagnostic[] }): {
		themes: Theme[];
		diagnostics: ResourceDiagnostic[];
	};
	agentsFilesOverride?(base: { agentsFiles: ContextFile[] }): { agentsFiles: ContextFile[] };
	systemPromptOverride?(base: string | undefined): string | undefined;
	appendSystemPromptOverride?(base: string[]): string[];
}

const CLI_METADATA: PathMetadata = { source: "cli", scope: "temporary", origin: "top-level" };

/** A resource root to load, in precedence order. */
interface KindSource {
	path: string;
	sourceInfo: SourceInfo;
}

/**
 * The standard resource loader: resolves every source by precedence (CLI > project explicit >
 * project auto > user explicit > user auto > packages > built-ins), gates project resources on
 * trust, and rebuilds everything on `reload()`. The constructor performs no I/O.
 */
export class DefaultResourceLoader implements ResourceLoader {
	private settings: SettingsManager | undefined;
	private generation = 0;
	private extensions: LoadExtensionsResult = { extensions: [], errors: [] };
	private extensionItems: ExtensionLoadItem[] = [];
	private skills = { skills: [] as Skill[], diagnostics: [] as ResourceDiagnostic[] };
	private prompts = { prompts: [] as PromptTemplate[], diagnostics: [] as ResourceDiagnostic[] };
	private themes = { themes: [] as Theme[], diagnostics: [] as ResourceDiagnostic[] };
	private agentsFiles: ContextFile[] = [];
	private systemPrompt: string | undefined;
	private systemPromptSource: { path: string } | undefined;
	private appendSystemPrompt: string[] = [];
	private appendSystemPromptSources: { path: string }[] = [];
	private diagnostics: ResourceDiagnostic[] = [];
	private readonly sources: Record<Kind, KindSource[]> = { skills: [], prompts: [], themes: [] };
	private readonly cliDiagnostics: Record<Kind, ResourceDiagnostic[]> = { skills: [], prompts: [], themes: [] };

	constructor(private readonly options: DefaultResourceLoaderOptions) {
		this.settings = options.settingsManager;
	}

	getExtensions(): LoadExtensionsResult {
		return this.extensions;
	}
	/** The extension items of the last reload, in load order, with their source info. */
	getExtensionLoadItems(): ExtensionLoadItem[] {
		return [...this.extensionItems];
	}
	getSkills(): { skills: Skill[]; diagnostics: ResourceDiagnostic[] } {
		return this.skills;
	}
	getPrompts(): { prompts: PromptTemplate[]; diagnostics: ResourceDiagnostic[] } {
		return this.prompts;
	}
	getThemes(): { themes: Theme[]; diagnostics: ResourceDiagnostic[] } {
		return this.themes;
	}
	getAgentsFiles(): { agentsFiles: ContextFile[] } {
		return { agentsFiles: this.agentsFiles };
	}
	getSystemPrompt(): string | undefined {
		return this.systemPrompt;
	}
	getSystemPromptSource(): { path: string } | undefined {
		return this.systemPromptSource;
	}
	getAppendSystemPrompt(): string[] {
		return [...this.appendSystemPrompt];
	}
	getAppendSystemPromptSources(): { path: string }[] {
		return [...this.appendSystemPromptSources];
	}
	/** Problems outside skills, prompts, themes and extensions: context files, prompt files, packages. */
	getDiagnostics(): ResourceDiagnostic[] {
		return [...this.diagnostics];
	}
	/** The settings the last reload used (its trust flag is the decided project trust). */
	getSettingsManager(): SettingsManager {
		this.settings ??= SettingsManager.create(this.options.cwd, this.options.agentDir);
		return this.settings;
	}
	isProjectTrusted(): boolean {
		return this.getSettingsManager().isProjectTrusted();
	}
	/** MCP configuration files that may be read: the user's, and the project's only when trusted. */
	getMcpConfigPaths(): { path: string; scope: "user" | "project" }[] {
		const paths: { path: string; scope: "user" | "project" }[] = [];
		const project = join(getProjectConfigDir(this.options.cwd), "mcp.json");
		if (this.isProjectTrusted() && existsSync(project)) paths.push({ path: project, scope: "project" });
		const user = join(this.options.agentDir, "mcp.json");
		if (existsSync(user)) paths.push({ path: user, scope: "user" });
		return paths;
	}

	async reload(reloadOptions: ReloadOptions = {}): Promise<void> {
		const { options } = this;
		const settings = this.getSettingsManager();
		this.generation++;
		const load = options.loadExtensions ?? builtinExtensionLoader;
		let preTrust: LoadExtensionsResult | undefined;
		await this.refreshTemporaryPackages(settings);
		if (reloadOptions.resolveProjectTrust) {
			settings.setProjectTrusted(false);
			await settings.reload();
			const untrusted = this.resolveAll(settings, await this.installMissingPackages(settings));
			const items = this.extensionLoadItems(untrusted.resolved, untrusted.cli, false);
			preTrust = settleExtensionSet(await load({ ...this.loadContext(), items, phase: "pre-trust" }));
			const trusted = await reloadOptions.resolveProjectTrust({ extensionsResult: preTrust });
			settings.setProjectTrusted(trusted);
		}
		await settings.reload();
		const { resolved, cli, diagnostics } = this.resolveAll(settings, await this.installMissingPackages(settings));
		this.diagnostics = [...diagnostics];

		this.extensionItems = this.extensionLoadItems(resolved, cli, true);
		const base = await loadFinalExtensionSet(this.extensionItems, load, {
			...this.loadContext(),
			previous: preTrust,
		});
		const settled = settleExtensionSet(base);
		settled.errors.push(...this.extensionPathErrors());
		// Resolver diagnostics are package install failures, reported with the extensions.
		settled.warnings = [
			...(settled.warnings ?? []),
			...diagnostics,
			...hostDependencyWarnings(settled.extensions.map((extension) => extension.sourceInfo)),
		];
		this.extensions = options.extensionsOverride ? options.extensionsOverride(settled) : settled;

		this.sources.skills = this.kindSources("skills", resolved, cli, options.noSkills, options.additionalSkillPaths);
		this.sources.prompts = this.kindSources(
			"prompts",
			resolved,
			cli,
			options.noPromptTemplates,
			options.additionalPromptTemplatePaths,
		);
		this.sources.themes = this.kindSources("themes", resolved, cli, options.noThemes, options.additionalThemePaths);
		// Themes bring the terminal colour helpers; load them only when there are theme files or
		// extensions besides the built-in ones (which may add theme paths).
		if (
			this.sources.themes.length > 0 ||
			this.extensions.extensions.some((extension) => !extension.path.startsWith("builtin:"))
		) {
			themeFiles ??= await import("../themes/theme-files.js");
		}
		this.reloadSkills();
		this.reloadPrompts();
		this.reloadThemes();

		const context = options.noContextFiles
			? { agentsFiles: [], diagnostics: [] }
			: discoverContextFiles({ cwd: options.cwd, agentDir: options.agentDir });
		this.diagnostics.push(...context.diagnostics);
		this.agentsFiles = options.agentsFilesOverride
			? options.agentsFilesOverride({ agentsFiles: context.agentsFiles }).agentsFiles
			: context.agentsFiles;

		this.loadPromptFiles(settings.isProjectTrusted());
	}

	extendResources(paths: ResourceExtensionPaths): void {
		const additions: [Kind, ResourceExtensionPaths["skillPaths"]][] = [
			["skills", paths.skillPaths],
			["prompts", paths.promptPaths],
			["themes", paths.themePaths],
		];
		for (const [kind, entries] of additions) {
			if (!entries || entries.length === 0) continue;
			const known = new Set(this.sources[kind].map((source) => pathKey(source.path)));
			for (const entry of entries) {
				const path = resolveResourcePath(entry.path, this.options.cwd);
				const key = pathKey(path);
				if (known.has(key)) continue;
				known.add(key);
				const metadata = { ...entry.metadata };
				if (metadata.baseDir) metadata.baseDir = resolveResourcePath(metadata.baseDir, this.options.cwd);
				this.sources[kind].push({ path, sourceInfo: sourceInfoFor(path, metadata) });
			}
			if (kind === "skills") this.reloadSkills();
			else if (kind === "prompts") this.reloadPrompts();
			else this.reloadThemes();
		}
	}

	private loadContext(): { cwd: string; agentDir: string; generation: number; eventBus?: unknown } {
		const { cwd, agentDir, eventBus } = this.options;
		const context = { cwd, agentDir, generation: this.generation };
		return eventBus === undefined ? context : { ...context, eventBus };
	}

	private packageResolver(settings: SettingsManager, installFailures?: ReadonlyMap<string, string>): PackageResolver {
		const { options } = this;
		return new PackageResolver({
			cwd: options.cwd,
			agentDir: options.agentDir,
			settings,
			homeDir: options.homeDir,
			builtinExtensionNames: this.builtinExtensions().map((extension) => extension.name),
			...(installFailures ? { installFailures } : {}),
		});
	}

	/**
	 * Installs configured and `-e` npm/git packages that are missing (docs/design/resources.md#failure-policy). Failures
	 * and offline mode never stop the reload: they are returned per source for the resolver's
	 * warning, and the next reload tries again.
	 */
	private async installMissingPackages(settings: SettingsManager): Promise<Map<string, string>> {
		const failures = new Map<string, string>();
		const missing = this.packageResolver(settings).missingPackages(this.options.additionalExtensionPaths ?? []);
		if (missing.length === 0) return failures;
		if (isOffline()) {
			for (const item of missing) failures.set(item.source, "offline mode");
			return failures;
		}
		let installer: PackageInstaller;
		try {
			installer = new PackageInstaller({
				npmCommand: npmCommandOrDefault(settings.getNpmCommand()),
				output: this.options.packageCommandOutput ?? "capture",
				...(this.options.onPackageProgress ? { onProgress: this.options.onPackageProgress } : {}),
			});
		} catch (error) {
			for (const item of missing) failures.set(item.source, errorMessage(error));
			return failures;
		}
		for (const item of missing) {
			try {
				await installer.install(item.source, item.parsed, item.location);
			} catch (error) {
				failures.set(item.source, errorMessage(error));
			}
		}
		return failures;
	}

	/** `-e` packages follow their source on every reload; failures keep the cached copy. */
	private async refreshTemporaryPackages(settings: SettingsManager): Promise<void> {
		const sources = this.options.additionalExtensionPaths ?? [];
		if (sources.length === 0 || isOffline()) return;
		try {
			await refreshTemporaryPackages(sources, {
				cwd: this.options.cwd,
				agentDir: this.options.agentDir,
				settings,
				npmCommand: npmCommandOrDefault(settings.getNpmCommand()),
				output: this.options.packageCommandOutput ?? "capture",
				...(this.options.onPackageProgress ? { onProgress: this.options.onPackageProgress } : {}),
			});
		} catch {
			// An unusable npmCommand is reported when a missing package needs it.
		}
	}

	private resolveAll(
		settings: SettingsManager,
		installFailures: ReadonlyMap<string, string>,
	): {
		resolved: ResolvedPaths;
		cli: ResolvedPaths;
		diagnostics: ResourceDiagnostic[];
	} {
		const { options } = this;
		const resolver = this.packageResolver(settings, installFailures);
		const main = resolver.resolve();
		const cli = resolver.resolveExtensionSources(options.additionalExtensionPaths ?? []);
		return { resolved: main.resolved, cli: cli.resolved, diagnostics: [...main.diagnostics, ...cli.diagnostics] };
	}

	private builtinExtensions(): Extract<InlineExtension, { builtin?: boolean }>[] {
		return (this.options.extensionFactories ?? []).filter(
			(extension): extension is Extract<InlineExtension, { builtin?: boolean }> =>
				typeof extension !== "function" && extension.builtin === true,
		);
	}

	/**
	 * Extension items in load order: CLI `-e`, then enabled settings/auto/package/built-in paths
	 * (unless `noExtensions`), then inline factories. The pre-trust pass leaves built-ins out.
	 */
	private extensionLoadItems(
		resolved: ResolvedPaths,
		cli: ResolvedPaths,
		includeBuiltins: boolean,
	): ExtensionLoadItem[] {
		const { options } = this;
		const disabled = new Set((options.disabledBuiltinExtensions ?? []).map((name) => `builtin:${name}`));
		const entries: ResolvedResource[] = [
			...cli.extensions,
			...(options.noExtensions ? [] : resolved.extensions.filter((entry) => entry.enabled)),
		];
		const seen = new Set<string>();
		const items: ExtensionLoadItem[] = [];
		for (const entry of entries) {
			const key = pathKey(entry.path);
			if (seen.has(key) || disabled.has(entry.path)) continue;
			const isBuiltin = entry.path.startsWith("builtin:");
			if (isBuiltin && !includeBuiltins) continue;
			if (!isBuiltin && !existsSync(entry.path)) continue;
			seen.add(key);
			const builtin = isBuiltin
				? this.builtinExtensions().find((extension) => `builtin:${extension.name}` === entry.path)
				: undefined;
			items.push({
				path: entry.path,
				sourceInfo: sourceInfoFor(entry.path, entry.metadata),
				hidden: isBuiltin,
				replaceable: builtin?.replaceable ?? false,
				...(builtin ? { factory: builtin.factory } : {}),
			});
		}
		return [...items, ...inlineLoadItems(options.extensionFactories ?? [])];
	}

	/** Missing CLI extension paths and unknown built-ins (always errors, never a failed start). */
	private extensionPathErrors(): { path: string; error: string }[] {
		const errors: { path: string; error: string }[] = [];
		const known = new Set(this.builtinExtensions().map((extension) => `builtin:${extension.name}`));
		for (const raw of this.options.additionalExtensionPaths ?? []) {
			if (raw.startsWith("builtin:")) {
				if (!known.has(raw)) errors.push({ path: raw, error: `Unknown built-in extension: ${raw}` });
				continue;
			}
			if (/^(npm:|git:|github:|[a-z+]+:\/\/)/.test(raw)) continue;
			const path = resolveResourcePath(raw, this.options.cwd);
			if (!existsSync(path)) errors.push({ path, error: `Extension path does not exist: ${path}` });
		}
		return errors;
	}

	/**
	 * Roots of one kind in precedence order: resources of `-e` packages, explicit CLI paths, then
	 * enabled discovered/configured ones (dropped by `--no-<kind>`).
	 */
	private kindSources(
		kind: Kind,
		resolved: ResolvedPaths,
		cli: ResolvedPaths,
		disabled: boolean | undefined,
		explicit: string[] | undefined,
	): KindSource[] {
		const label = { skills: "Skill", prompts: "Prompt template", themes: "Theme" }[kind];
		this.cliDiagnostics[kind] = [];
		const ordered: { path: string; metadata: PathMetadata }[] = [
			...cli[kind].filter((entry) => entry.enabled),
			...(explicit ?? []).map((path) => ({
				path: resolveResourcePath(path, this.options.cwd),
				metadata: CLI_METADATA,
			})),
			...(disabled ? [] : resolved[kind].filter((entry) => entry.enabled)),
		];
		const seen = new Set<string>();
		const sources: KindSource[] = [];
		for (const { path, metadata } of ordered) {
			const key = pathKey(path);
			if (seen.has(key)) continue;
			seen.add(key);
			if (!existsSync(path)) {
				if (metadata === CLI_METADATA) {
					this.cliDiagnostics[kind].push({
						type: "error",
						message: `${label} path does not exist: ${path}`,
						path,
					});
				}
				continue;
			}
			sources.push({ path, sourceInfo: sourceInfoFor(path, metadata) });
		}
		return sources;
	}

	private reloadSkills(): void {
		const loaded = loadSkillsFromSources(this.sources.skills);
		const base = { skills: loaded.skills, diagnostics: [...this.cliDiagnostics.skills, ...loaded.diagnostics] };
		this.skills = this.options.skillsOverride ? this.options.skillsOverride(base) : base;
	}

	private reloadPrompts(): void {
		const loaded = loadPromptTemplates(this.sources.prompts);
		const base = { prompts: loaded.prompts, diagnostics: [...this.cliDiagnostics.prompts, ...loaded.diagnostics] };
		this.prompts = this.options.promptsOverride ? this.options.promptsOverride(base) : base;
	}

	private reloadThemes(): void {
		if (!themeFiles && this.sources.themes.length > 0) {
			// Only a caller of extendResources without extensions gets here before reload imported it.
			void import("../themes/theme-files.js").then((module) => {
				themeFiles = module;
				this.reloadThemes();
			});
			return;
		}
		const loaded = themeFiles?.loadThemes(this.sources.themes) ?? { themes: [], diagnostics: [] };
		const base = { themes: loaded.themes, diagnostics: [...this.cliDiagnostics.themes, ...loaded.diagnostics] };
		this.themes = this.options.themesOverride ? this.options.themesOverride(base) : base;
	}

	/** SYSTEM.md / APPEND_SYSTEM.md and their CLI replacements. */
	private loadPromptFiles(projectTrusted: boolean): void {
		const { options } = this;
		const where = { cwd: options.cwd, agentDir: options.agentDir, projectTrusted };
		const systemValue = options.systemPrompt ?? discoverPromptFile("SYSTEM.md", where);
		const system =
			systemValue === undefined ? undefined : resolvePromptSource(systemValue, options.cwd, this.diagnostics);
		const systemText = system?.text;
		this.systemPrompt = options.systemPromptOverride ? options.systemPromptOverride(systemText) : systemText;
		this.systemPromptSource = system?.path && this.systemPrompt === systemText ? { path: system.path } : undefined;

		const appendValues =
			options.appendSystemPrompt && options.appendSystemPrompt.length > 0
				? options.appendSystemPrompt
				: [discoverPromptFile("APPEND_SYSTEM.md", where)].filter((path): path is string => path !== undefined);
		const appended = appendValues
			.map((value) => resolvePromptSource(value, options.cwd, this.diagnostics))
			.filter((text): text is NonNullable<typeof text> => text !== undefined);
		const texts = appended.map((entry) => entry.text);
		this.appendSystemPrompt = options.appendSystemPromptOverride ? options.appendSystemPromptOverride(texts) : texts;
		this.appendSystemPromptSources = appended.flatMap((entry) => (entry.path ? [{ path: entry.path }] : []));
	}
}
