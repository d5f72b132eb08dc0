import { relative, sep } from "node:path";
import { getProjectConfigDir, type SettingsManager } from "../../config/index.js";
import {
	nextProjectState,
	overrideState,
	type ProjectOverrideState,
	projectPackageState,
	withPackageOverride,
	withProjectPackageState,
	withProjectTopLevelState,
	withTopLevelOverride,
} from "../../config/resource-toggles/index.js";
import type { ResourceKind } from "../../config/settings/resource-paths.js";
import type { PackageSource, Settings } from "../../config/settings/types.js";
import {
	PackageResolver,
	type PathMetadata,
	parsePackageSource,
	pathKey,
	type ResourceDiagnostic,
} from "../../core/resources/index.js";

/** Which settings file `tau config` edits: the user's, or the project's `.tau/settings.json`. */
export type ConfigScope = "user" | "project";

export const RESOURCE_KINDS: readonly ResourceKind[] = ["extensions", "skills", "prompts", "themes"];

/** One resolved resource as `tau config` shows it in a scope. */
export interface ConfigItem {
	/** Stable across toggles: the kind and the resolved path. */
	id: string;
	kind: ResourceKind;
	path: string;
	metadata: PathMetadata;
	/** Whether it loads, as the scope's resolution sees it. */
	enabled: boolean;
	/** False for a package that is itself the resource (a file, or a folder without resources): no filter can name it. */
	toggleable: boolean;
	/** Project scope only: the item's override in the project settings. */
	projectState?: ProjectOverrideState;
	/** Project scope only: a user file, even once a project override lists it. */
	fromUser?: boolean;
}

export interface ResourceConfigOptions {
	cwd: string;
	agentDir: string;
	settings: SettingsManager;
	/** Names of the built-in extensions (`builtin:<name>`), listed under "Built-in". */
	builtinExtensionNames: readonly string[];
	homeDir?: string;
}

const posix = (path: string) => path.split(sep).join("/");

function sourceOf(entry: PackageSource): string {
	return typeof entry === "string" ? entry : entry.source;
}

function isBuiltin(metadata: PathMetadata): boolean {
	return metadata.source === "builtin";
}

/**
 * The resources `tau config` lists and the settings writes its toggles make (docs/design/resources.md#config-write-rules). The user scope shows the resolution of the user settings alone and writes them; the
 * project scope shows the full resolution and writes overrides into the project settings.
 */
export class ResourceConfig {
	constructor(private readonly options: ResourceConfigOptions) {}

	get projectTrusted(): boolean {
		return this.options.settings.isProjectTrusted();
	}

	/** The scope's resources in resolution order, and the resolver's warnings. */
	items(scope: ConfigScope): { items: ConfigItem[]; diagnostics: ResourceDiagnostic[] } {
		const { resolved, diagnostics } = this.resolve(scope);
		const userKeys = scope === "project" ? this.userTopLevelKeys() : new Set<string>();
		const items: ConfigItem[] = [];
		for (const kind of RESOURCE_KINDS) {
			for (const resource of resolved[kind]) {
				const item: ConfigItem = {
					id: `${kind}:${resource.path}`,
					kind,
					path: resource.path,
					metadata: resource.metadata,
					enabled: resource.enabled,
					toggleable: resource.metadata.origin !== "package" || this.packagePattern(resource) !== "",
				};
				if (scope === "project") {
					item.projectState = this.projectState(item, userKeys);
					item.fromUser = userKeys.has(`${kind}:${pathKey(resource.path)}`);
				}
				items.push(item);
			}
		}
		return { items, diagnostics };
	}

	/**
	 * Flips the item in the user scope, or moves it to its next project state (inherit → load →
	 * unload → inherit). The settings manager writes the changed field back to disk.
	 */
	toggle(scope: ConfigScope, item: ConfigItem): void {
		if (!item.toggleable) return;
		if (scope === "user") this.toggleInUserScope(item);
		else this.toggleInProjectScope(item);
	}

	flush(): Promise<void> {
		return this.options.settings.flush();
	}

	private resolve(scope: ConfigScope) {
		const { cwd, agentDir, settings, builtinExtensionNames, homeDir } = this.options;
		// The user scope reads the user layer alone, as an untrusted project would.
		const view =
			scope === "user"
				? {
						getGlobalSettings: () => settings.getGlobalSettings(),
						getProjectSettings: (): Settings => ({}),
						isProjectTrusted: () => false,
					}
				: settings;
		const resolver = new PackageResolver({
			cwd,
			agentDir,
			settings: view,
			builtinExtensionNames,
			...(homeDir !== undefined ? { homeDir } : {}),
		});
		return resolver.resolve();
	}

	private toggleInUserScope(item: ConfigItem): void {
		const { settings } = this.options;
		const layer = settings.getGlobalSettings();
		if (item.metadata.origin === "package") {
			const packages = Array.isArray(layer.packages) ? layer.packages : [];
			const index = packages.findIndex((entry) => sourceOf(entry) === item.metadata.source);
			if (index === -1) return;
			const pattern = this.packagePattern(item);
			settings.setPackages(withPackageOverride(packages, index, item.kind, pattern, !item.enabled));
			return;
		}
		const pattern = isBuiltin(item.metadata) ? item.path : this.relativePattern(item);
		this.setResourceArray(
			"user",
			item.kind,
			withTopLevelOverride(this.resourceArray(layer, item.kind), pattern, !item.enabled),
		);
	}

	private toggleInProjectScope(item: ConfigItem): void {
		const userKeys = this.userTopLevelKeys();
		const next = nextProjectState(this.projectState(item, userKeys));
		const { settings } = this.options;
		const layer = settings.getProjectSettings();
		if (item.metadata.origin === "package") {
			const packages = Array.isArray(layer.packages) ? layer.packages : [];
			const index = this.projectPackageIndex(item);
			const pattern = this.packagePattern(item);
			const updated = withProjectPackageState(packages, index, this.deltaSource(item), item.kind, pattern, next);
			settings.setProjectPackages(updated);
			return;
		}
		const target = this.projectTarget(item, userKeys);
		const entries = withProjectTopLevelState(
			this.resourceArray(layer, item.kind),
			target.pattern,
			next,
			target.plainEntry,
		);
		this.setResourceArray("project", item.kind, entries);
	}

	private projectState(item: ConfigItem, userKeys: ReadonlySet<string>): ProjectOverrideState {
		const layer = this.options.settings.getProjectSettings();
		if (item.metadata.origin === "package") {
			const packages = Array.isArray(layer.packages) ? layer.packages : [];
			return projectPackageState(packages[this.projectPackageIndex(item)], item.kind, this.packagePattern(item));
		}
		return overrideState(this.resourceArray(layer, item.kind), this.projectTarget(item, userKeys).pattern);
	}

	/**
	 * How the project array names a top-level item: built-ins by `builtin:<name>`; a file the user
	 * scope provides by its absolute path (also added as a plain entry, so the project collects it);
	 * a project file relative to its base directory.
	 */
	private projectTarget(item: ConfigItem, userKeys: ReadonlySet<string>): { pattern: string; plainEntry?: string } {
		if (isBuiltin(item.metadata)) return { pattern: item.path };
		if (userKeys.has(`${item.kind}:${pathKey(item.path)}`))
			return { pattern: posix(item.path), plainEntry: posix(item.path) };
		return { pattern: this.relativePattern(item) };
	}

	/** `<kind>:<path key>` of every top-level file the user scope resolves (built-ins aside). */
	private userTopLevelKeys(): Set<string> {
		const { resolved } = this.resolve("user");
		const keys = new Set<string>();
		for (const kind of RESOURCE_KINDS) {
			for (const resource of resolved[kind]) {
				if (resource.metadata.origin === "top-level" && !isBuiltin(resource.metadata))
					keys.add(`${kind}:${pathKey(resource.path)}`);
			}
		}
		return keys;
	}

	/** The project `packages` entry of the item's package (same identity), or -1. */
	private projectPackageIndex(item: ConfigItem): number {
		const identity = this.packageIdentity(item);
		const packages = this.options.settings.getProjectSettings().packages;
		if (!Array.isArray(packages)) return -1;
		const base = getProjectConfigDir(this.options.cwd);
		return packages.findIndex((entry) => parsePackageSource(sourceOf(entry), base).identity === identity);
	}

	private packageIdentity(item: ConfigItem): string {
		const base = item.metadata.scope === "project" ? getProjectConfigDir(this.options.cwd) : this.options.agentDir;
		return parsePackageSource(item.metadata.source, base).identity;
	}

	/** The source of a new project delta entry: local paths re-expressed relative to `<cwd>/.tau`. */
	private deltaSource(item: ConfigItem): string {
		const parsed = parsePackageSource(item.metadata.source, this.options.agentDir);
		if (parsed.kind !== "local") return item.metadata.source;
		return posix(relative(getProjectConfigDir(this.options.cwd), parsed.path)) || ".";
	}

	private packagePattern(item: Pick<ConfigItem, "metadata" | "path">): string {
		return posix(relative(item.metadata.packageRoot ?? item.metadata.baseDir ?? "", item.path));
	}

	private relativePattern(item: ConfigItem): string {
		return item.metadata.baseDir === undefined ? posix(item.path) : posix(relative(item.metadata.baseDir, item.path));
	}

	private resourceArray(layer: Settings, kind: ResourceKind): string[] {
		const value = layer[kind];
		return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];
	}

	private setResourceArray(scope: ConfigScope, kind: ResourceKind, entries: string[]): void {
		const { settings } = this.options;
		const setters = {
			extensions: [settings.setExtensionPaths, settings.setProjectExtensionPaths],
			skills: [settings.setSkillPaths, settings.setProjectSkillPaths],
			prompts: [settings.setPromptTemplatePaths, settings.setProjectPromptTemplatePaths],
			themes: [settings.setThemePaths, settings.setProjectThemePaths],
		} as const;
		const [user, project] = setters[kind];
		(scope === "user" ? user : project).call(settings, entries);
	}
}
