import type { PackageSource, SettingsManager } from "../../../config/index.js";
import { getProjectConfigDir } from "../../../config/paths.js";
import { npmCommandOrDefault } from "../../../config/settings/normalize.js";
import { type InstallLocation, packageInstallLocation } from "./install-paths.js";
import {
	installAndPersist,
	installPackage,
	normalizePackageSourceForSettings,
	type PackageCommandContext,
	removePackage,
	uninstallPackage,
} from "./package-commands.js";
import { PackageInstaller, type PackageProgressEvent } from "./package-installer.js";
import { type ConfiguredPackage, PackageResolver, type ResolvedPaths } from "./package-resolver.js";
import { parsePackageSource } from "./package-source.js";
import { updatePackages } from "./package-updater.js";

export type MissingSourceAction = "install" | "skip" | "error";

export interface DefaultPackageManagerOptions {
	cwd: string;
	agentDir: string;
	settingsManager: SettingsManager;
	/** `inherit` (default) streams npm and git output; `capture` keeps it for error messages. */
	commandOutput?: "inherit" | "capture";
	/** Built-in extensions resolved as `builtin:<name>` resources. */
	builtinExtensions?: string[];
}

const sourceOf = (entry: PackageSource) => (typeof entry === "string" ? entry : entry.source);

/**
 * The package operations of `tau install/remove/update/list` for SDK hosts (docs/configuration.md):
 * settings' `packages` in the user (default) or project (`local`) scope, and their installs.
 */
export class DefaultPackageManager {
	private onProgress: ((event: PackageProgressEvent) => void) | undefined;

	constructor(private readonly options: DefaultPackageManagerOptions) {}

	private context(): PackageCommandContext {
		return {
			cwd: this.options.cwd,
			agentDir: this.options.agentDir,
			settings: this.options.settingsManager,
			npmCommand: npmCommandOrDefault(this.options.settingsManager.getNpmCommand()),
			output: this.options.commandOutput ?? "inherit",
			...(this.onProgress ? { onProgress: this.onProgress } : {}),
		};
	}

	private resolver(): PackageResolver {
		return new PackageResolver({
			cwd: this.options.cwd,
			agentDir: this.options.agentDir,
			settings: this.options.settingsManager,
			...(this.options.builtinExtensions ? { builtinExtensionNames: this.options.builtinExtensions } : {}),
		});
	}

	setProgressCallback(callback: ((event: PackageProgressEvent) => void) | undefined): void {
		this.onProgress = callback;
	}

	/** The resources of every configured package; a package not installed yet is installed when `onMissing` says so. */
	async resolve(onMissing?: (source: string) => Promise<MissingSourceAction>): Promise<ResolvedPaths> {
		for (const missing of this.resolver().missingPackages([])) {
			const action = onMissing ? await onMissing(missing.source) : "skip";
			if (action === "error") throw new Error(`Package ${missing.source} is not installed`);
			if (action === "install") {
				await new PackageInstaller(this.context()).install(missing.source, missing.parsed, missing.location);
			}
		}
		return this.resolver().resolve().resolved;
	}

	/** The resources of packages given on the command line (`-e npm:…`), outside the settings. */
	async resolveExtensionSources(sources: string[]): Promise<ResolvedPaths> {
		return this.resolver().resolveExtensionSources(sources).resolved;
	}

	listConfiguredPackages(): ConfiguredPackage[] {
		return this.resolver().configuredPackages();
	}

	install(source: string, options: { local?: boolean } = {}): Promise<void> {
		return installPackage(source, options, this.context());
	}

	async installAndPersist(source: string, options: { local?: boolean } = {}): Promise<void> {
		await installAndPersist(source, options, this.context());
	}

	remove(source: string, options: { local?: boolean } = {}): Promise<void> {
		return uninstallPackage(source, options, this.context());
	}

	/** Uninstalls and removes the package from the settings; false when no entry named it. */
	async removeAndPersist(source: string, options: { local?: boolean } = {}): Promise<boolean> {
		try {
			await removePackage(source, options, this.context());
			return true;
		} catch (error) {
			if (error instanceof Error && error.message.startsWith("No matching package found")) return false;
			throw error;
		}
	}

	async update(source?: string): Promise<void> {
		const context = this.context();
		await updatePackages({ ...context, settings: this.options.settingsManager, ...(source ? { source } : {}) });
	}

	/** Adds the source to the scope's `packages` (false when that package is already listed). */
	addSourceToSettings(source: string, options: { local?: boolean } = {}): boolean {
		const { entries, baseDir, write } = this.scopeEntries(options.local);
		const stored = normalizePackageSourceForSettings(source, baseDir, this.options.cwd);
		const identity = parsePackageSource(stored, baseDir).identity;
		if (entries.some((entry) => parsePackageSource(sourceOf(entry), baseDir).identity === identity)) return false;
		write([...entries, stored]);
		return true;
	}

	/** Removes every entry of that package from the scope's `packages` (false when none named it). */
	removeSourceFromSettings(source: string, options: { local?: boolean } = {}): boolean {
		const { entries, baseDir, write } = this.scopeEntries(options.local);
		const identity = parsePackageSource(source, this.options.cwd).identity;
		const kept = entries.filter((entry) => parsePackageSource(sourceOf(entry), baseDir).identity !== identity);
		if (kept.length === entries.length) return false;
		write(kept);
		return true;
	}

	/** Where an npm or git package of that scope is installed; undefined for local paths. */
	getInstalledPath(source: string, scope: "user" | "project"): string | undefined {
		const parsed = parsePackageSource(source, this.options.cwd);
		if (parsed.kind === "local") return undefined;
		const location: InstallLocation = packageInstallLocation(parsed, scope, {
			agentDir: this.options.agentDir,
			cwd: this.options.cwd,
			projectTrusted: this.options.settingsManager.isProjectTrusted(),
		});
		return location.path;
	}

	private scopeEntries(local: boolean | undefined) {
		const settings = this.options.settingsManager;
		const layer = local ? settings.getProjectSettings() : settings.getGlobalSettings();
		return {
			entries: Array.isArray(layer.packages) ? [...layer.packages] : [],
			baseDir: local ? getProjectConfigDir(this.options.cwd) : this.options.agentDir,
			write: (packages: PackageSource[]) =>
				local ? settings.setProjectPackages(packages) : settings.setPackages(packages),
		};
	}
}
