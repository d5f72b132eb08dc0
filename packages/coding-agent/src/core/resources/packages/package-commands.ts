import { existsSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import { getProjectConfigDir } from "../../../config/paths.js";
import type { PackageSource } from "../../../config/settings/types.js";
import { errorMessage } from "../../errors.js";
import { type InstallLocation, packageInstallLocation } from "./install-paths.js";
import { runPackageCommand } from "./package-command.js";
import {
	detectPackageManager,
	PackageInstaller,
	type PackageInstallerOptions,
	removeWithEmptyParents,
} from "./package-installer.js";
import { type ParsedPackageSource, parsePackageSource } from "./package-source.js";

/** The settings a package command reads and writes (a `SettingsManager` satisfies it). */
export interface PackageCommandSettings {
	isProjectTrusted(): boolean;
	getGlobalSettings(): { packages?: PackageSource[] };
	getProjectSettings(): { packages?: PackageSource[] };
	setPackages(packages: PackageSource[]): void;
	setProjectPackages(packages: PackageSource[]): void;
	flush(): Promise<void>;
}

export interface PackageCommandContext extends PackageInstallerOptions {
	cwd: string;
	agentDir: string;
	settings: PackageCommandSettings;
}

type Scope = "user" | "project";

const sourceOf = (entry: PackageSource) => (typeof entry === "string" ? entry : entry.source);

function scopeOf(local: boolean | undefined): Scope {
	return local ? "project" : "user";
}

function baseDirOf(context: PackageCommandContext, scope: Scope): string {
	return scope === "project" ? getProjectConfigDir(context.cwd) : context.agentDir;
}

function entriesOf(context: PackageCommandContext, scope: Scope): PackageSource[] {
	const layer = scope === "project" ? context.settings.getProjectSettings() : context.settings.getGlobalSettings();
	return Array.isArray(layer.packages) ? [...layer.packages] : [];
}

async function writeEntries(context: PackageCommandContext, scope: Scope, entries: PackageSource[]): Promise<void> {
	if (scope === "project") context.settings.setProjectPackages(entries);
	else context.settings.setPackages(entries);
	await context.settings.flush();
}

function requireTrust(context: PackageCommandContext, scope: Scope): void {
	if (scope === "project" && !context.settings.isProjectTrusted()) {
		throw new Error("Project is not trusted. Use --approve to modify local package config.");
	}
}

/**
 * How settings store a source: local paths relative to the scope's base dir (`.` for the base
 * itself), every other source as given.
 */
export function normalizePackageSourceForSettings(source: string, baseDir: string, cwd: string): string {
	const parsed = parsePackageSource(source, cwd);
	if (parsed.kind !== "local") return source;
	const rel = relative(baseDir, parsed.path);
	if (rel === "") return ".";
	return rel.startsWith("..") || isAbsolute(rel) ? parsed.path : rel;
}

function locate(
	context: PackageCommandContext,
	parsed: Exclude<ParsedPackageSource, { kind: "local" }>,
	scope: Scope,
): InstallLocation {
	return packageInstallLocation(parsed, scope, {
		agentDir: context.agentDir,
		cwd: context.cwd,
		projectTrusted: context.settings.isProjectTrusted(),
	});
}

/**
 * `tau install <source> [-l]`: installs (local sources are only checked) and records the source in
 * the scope's `packages`. An entry of the same package has its source replaced (object entries
 * keep their filters); otherwise the source is appended. Returns the line to print.
 */
export async function installAndPersist(
	source: string,
	options: { local?: boolean },
	context: PackageCommandContext,
): Promise<string> {
	const scope = scopeOf(options.local);
	await installPackage(source, options, context);
	const baseDir = baseDirOf(context, scope);
	const stored = normalizePackageSourceForSettings(source, baseDir, context.cwd);
	const entries = entriesOf(context, scope);
	const index = entries.findIndex(
		(entry) => parsePackageSource(sourceOf(entry), baseDir).identity === parsePackageSource(stored, baseDir).identity,
	);
	if (index === -1) entries.push(stored);
	else if (sourceOf(entries[index]!) !== stored) {
		const existing = entries[index]!;
		entries[index] = typeof existing === "string" ? stored : { ...existing, source: stored };
	}
	await writeEntries(context, scope, entries);
	return `Installed ${source}`;
}

/** The scope a command acts on (refused unless trusted there) and the parsed package source. */
function trustedSource(source: string, options: { local?: boolean }, context: PackageCommandContext) {
	const scope = scopeOf(options.local);
	requireTrust(context, scope);
	return { scope, parsed: parsePackageSource(source, context.cwd) };
}

/** Installs a package into the scope's storage (when it is not there yet) without changing settings. */
export async function installPackage(
	source: string,
	options: { local?: boolean },
	context: PackageCommandContext,
): Promise<void> {
	const { scope, parsed } = trustedSource(source, options, context);
	if (parsed.kind === "local") {
		if (!existsSync(parsed.path)) throw new Error(`Path does not exist: ${parsed.path}`);
		return;
	}
	const location = locate(context, parsed, scope);
	if (!existsSync(location.path)) await new PackageInstaller(context).install(source, parsed, location);
}

/** Deletes a package from the scope's storage (npm uninstall, git checkout removed; local: nothing). */
export async function uninstallPackage(
	source: string,
	options: { local?: boolean },
	context: PackageCommandContext,
): Promise<void> {
	const { scope, parsed } = trustedSource(source, options, context);
	if (parsed.kind === "local") return;
	const location = locate(context, parsed, scope);
	if (parsed.kind === "git") removeWithEmptyParents(location.path, location.root);
	else if (existsSync(location.path) && location.prefix) {
		const [command, ...leading] = context.npmCommand;
		const kind = detectPackageManager(context.npmCommand);
		const args = kind === "bun" ? ["remove", parsed.name] : ["uninstall", parsed.name, "--prefix", location.prefix];
		await runPackageCommand(command!, [...leading, ...args], {
			cwd: location.prefix,
			output: context.output ?? "capture",
			...(context.env ? { env: context.env } : {}),
		});
	}
}

/**
 * `tau remove <source> [-l]`: uninstalls (npm uninstall in the scope root; git checkout deleted
 * with its empty parents; local: nothing) and drops every entry of that package from the scope.
 */
export async function removePackage(
	source: string,
	options: { local?: boolean },
	context: PackageCommandContext,
): Promise<string> {
	const scope = scopeOf(options.local);
	requireTrust(context, scope);
	const baseDir = baseDirOf(context, scope);
	const identity = parsePackageSource(source, context.cwd).identity;
	const entries = entriesOf(context, scope);
	const kept = entries.filter((entry) => parsePackageSource(sourceOf(entry), baseDir).identity !== identity);
	if (kept.length === entries.length) throw new Error(`No matching package found for ${source}`);
	await uninstallPackage(source, options, context);
	await writeEntries(context, scope, kept);
	return `Removed ${source}`;
}

/** `tau list`: each scope's sources (` (filtered)` for object entries) with where they live. */
export function listPackages(context: PackageCommandContext): string[] {
	const lines: string[] = [];
	const scopes: [Scope, string][] = [["user", "User packages:"]];
	if (context.settings.isProjectTrusted()) scopes.push(["project", "Project packages:"]);
	for (const [scope, title] of scopes) {
		const entries = entriesOf(context, scope);
		if (entries.length === 0) continue;
		if (lines.length > 0) lines.push("");
		lines.push(title);
		const baseDir = baseDirOf(context, scope);
		for (const entry of entries) {
			const source = sourceOf(entry);
			const parsed = parsePackageSource(source, baseDir);
			let path: string;
			try {
				path = parsed.kind === "local" ? parsed.path : locate(context, parsed, scope).path;
			} catch (error) {
				path = errorMessage(error);
			}
			lines.push(`  ${source}${typeof entry === "string" ? "" : " (filtered)"}`, `    ${path}`);
		}
	}
	return lines.length > 0 ? lines : ["No packages installed."];
}
