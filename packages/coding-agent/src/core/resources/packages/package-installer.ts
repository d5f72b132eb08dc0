import { existsSync, mkdirSync, readdirSync, realpathSync, rmdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { APP_NAME } from "../../../config/app-identity.js";
import { errorMessage } from "../../errors.js";
import { writeFileAtomicSync } from "../../fs/atomic-write.js";
import type { InstallLocation } from "./install-paths.js";
import { runPackageCommand } from "./package-command.js";
import type { ParsedPackageSource } from "./package-source.js";

export type PackageManagerKind = "npm" | "pnpm" | "bun";

/** Progress of one package command (docs/design/resources.md#installing): `start` is followed by one `complete` or `error`. */
export interface PackageProgressEvent {
	type: "start" | "progress" | "complete" | "error" | "result";
	action: "install" | "remove" | "update" | "clone" | "pull";
	source: string;
	message?: string;
}

export interface PackageInstallerOptions {
	/** The `npmCommand` setting: the package manager command and its leading arguments. */
	npmCommand: readonly string[];
	/** `inherit` streams git/npm output to the terminal; `capture` keeps it for error messages. */
	output?: "inherit" | "capture";
	onProgress?: (event: PackageProgressEvent) => void;
	env?: NodeJS.ProcessEnv;
}

/** Git output when it needed credentials it could not ask for (prompts are off while capturing). */
const CREDENTIAL_PROMPT = /terminal prompts disabled|could not read (Username|Password)|Permission denied \(publickey/i;

const KNOWN_MANAGERS: readonly PackageManagerKind[] = ["npm", "pnpm", "bun"];

function managerName(word: string): PackageManagerKind | undefined {
	const name = basename(word).replace(/\.(cmd|exe|js|mjs|cjs)$/i, "");
	return KNOWN_MANAGERS.find((kind) => kind === name);
}

/**
 * Which package manager an `npmCommand` runs: the command itself, the command after `--` when it is
 * wrapped, or the single known manager name among its arguments (several are ambiguous).
 */
export function detectPackageManager(npmCommand: readonly string[]): PackageManagerKind {
	const separator = npmCommand.indexOf("--");
	if (separator >= 0 && npmCommand[separator + 1]) return managerName(npmCommand[separator + 1]!) ?? "npm";
	const direct = npmCommand[0] ? managerName(npmCommand[0]) : undefined;
	if (direct) return direct;
	const named = [...new Set(npmCommand.slice(1).flatMap((word) => managerName(word) ?? []))];
	if (named.length > 1) throw new Error(`Ambiguous npmCommand package managers: ${named.join(", ")}`);
	return named[0] ?? "npm";
}

/** Arguments that install `specs` into the prefix `root` without peers (host packages stay the host's). */
export function npmInstallArguments(kind: PackageManagerKind, specs: readonly string[], root: string): string[] {
	if (kind === "pnpm") {
		return [
			"install",
			...specs,
			"--prefix",
			root,
			"--config.auto-install-peers=false",
			"--config.strict-peer-dependencies=false",
			"--config.strict-dep-builds=false",
		];
	}
	if (kind === "bun") return ["install", ...specs, "--cwd", root, "--omit=peer"];
	return ["install", ...specs, "--prefix", root, "--legacy-peer-deps", "--no-audit", "--no-fund"];
}

/** Arguments that install the production dependencies of a git checkout. */
export function productionInstallArguments(kind: PackageManagerKind): string[] {
	if (kind === "pnpm") {
		return [
			"install",
			"--prod",
			"--config.auto-install-peers=false",
			"--config.strict-peer-dependencies=false",
			"--config.strict-dep-builds=false",
		];
	}
	if (kind === "bun") return ["install", "--omit=dev", "--omit=peer"];
	return ["install", "--omit=dev", "--legacy-peer-deps", "--no-audit", "--no-fund"];
}

/** The npm install root: ignored by git and cloud sync, with a private manifest. */
function prepareNpmRoot(root: string): void {
	mkdirSync(root, { recursive: true });
	const gitignore = join(root, ".gitignore");
	if (!existsSync(gitignore)) writeFileAtomicSync(gitignore, "*\n!.gitignore\n");
	const manifest = join(root, "package.json");
	if (!existsSync(manifest)) {
		writeFileAtomicSync(manifest, `${JSON.stringify({ name: "tau-extensions", private: true }, null, 2)}\n`);
	}
}

/** Removes `dir` and then its empty parents, never `stopAt` itself. */
export function removeWithEmptyParents(dir: string, stopAt: string): void {
	rmSync(dir, { recursive: true, force: true });
	let parent = dirname(dir);
	while (parent.startsWith(stopAt) && parent !== stopAt) {
		try {
			if (readdirSync(parent).length > 0) return;
			rmdirSync(parent);
		} catch {
			return;
		}
		parent = dirname(parent);
	}
}

/** Installs npm and git packages into their computed locations (docs/design/resources.md#installing). */
export class PackageInstaller {
	private readonly kind: PackageManagerKind;

	constructor(private readonly options: PackageInstallerOptions) {
		this.kind = detectPackageManager(options.npmCommand);
	}

	/**
	 * Installs `parsed` so that `location.path` exists. Throws with the failing command's message;
	 * a failed git install leaves no partial checkout behind.
	 */
	async install(
		source: string,
		parsed: Exclude<ParsedPackageSource, { kind: "local" }>,
		location: InstallLocation,
	): Promise<void> {
		const action = parsed.kind === "git" ? "clone" : "install";
		this.options.onProgress?.({ type: "start", action, source });
		try {
			if (parsed.kind === "npm") await this.installNpm(parsed, location.prefix ?? dirname(location.path));
			else await this.installGit(source, parsed, location);
		} catch (error) {
			const message = errorMessage(error);
			this.options.onProgress?.({ type: "error", action, source, message });
			throw error;
		}
		this.options.onProgress?.({ type: "complete", action, source });
	}

	private installNpm(parsed: Extract<ParsedPackageSource, { kind: "npm" }>, prefix: string): Promise<void> {
		return this.installNpmSpecs([parsed.version ? `${parsed.name}@${parsed.version}` : parsed.name], prefix);
	}

	private async installGit(
		source: string,
		parsed: Extract<ParsedPackageSource, { kind: "git" }>,
		location: InstallLocation,
	) {
		mkdirSync(dirname(location.path), { recursive: true });
		try {
			await this.run("git", ["clone", parsed.repo, location.path], location.root);
			if (parsed.ref) await this.run("git", ["checkout", parsed.ref], location.path);
			if (existsSync(join(location.path, "package.json"))) await this.installProductionDependencies(location.path);
		} catch (error) {
			removeWithEmptyParents(location.path, location.root);
			const message = errorMessage(error);
			if ((this.options.output ?? "capture") === "capture" && CREDENTIAL_PROMPT.test(message)) {
				throw new Error(
					`${message}\nConfigure a git credential helper or an ssh agent, or run "${APP_NAME} install ${source}" from a shell.`,
				);
			}
			throw error;
		}
	}

	/** Installs the production dependencies of a checkout with the configured package manager. */
	installProductionDependencies(checkout: string): Promise<void> {
		return this.runPackageManager(productionInstallArguments(this.kind), checkout);
	}

	/** Installs several npm specs into one prefix in a single package-manager run. */
	async installNpmSpecs(specs: readonly string[], prefix: string): Promise<void> {
		prepareNpmRoot(prefix);
		await this.runPackageManager(npmInstallArguments(this.kind, specs, realpathSync(prefix)), prefix);
	}

	private runPackageManager(args: string[], cwd: string): Promise<void> {
		const [command, ...leading] = this.options.npmCommand;
		return this.run(command!, [...leading, ...args], cwd);
	}

	private async run(command: string, args: string[], cwd: string): Promise<void> {
		await runPackageCommand(command, args, {
			cwd,
			output: this.options.output ?? "capture",
			...(this.options.env ? { env: this.options.env } : {}),
		});
	}
}
