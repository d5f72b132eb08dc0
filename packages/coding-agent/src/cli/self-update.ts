import { existsSync, realpathSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { APP_NAME } from "../config/app-identity.js";
import { errorMessage } from "../core/errors.js";
import { isNewerVersion } from "../core/resources/packages/npm-versions.js";
import { runPackageCommand } from "../core/resources/packages/package-command.js";
import type { MainIO } from "./main-io.js";

/** How the running tau was installed, which decides what the built-in self-update may do. */
export type InstallMethod =
	| { kind: "npm-global" }
	| { kind: "source-checkout"; checkout: string }
	| { kind: "unknown"; packageDir: string };

/** The outside world of a self-update; tests replace it so nothing touches the network or global npm. */
export interface SelfUpdateEnvironment {
	packageName: string;
	currentVersion: string;
	offline: boolean;
	/** `TAU_SELF_UPDATE_COMMAND` or the `selfUpdateCommand` setting, with placeholders unexpanded. */
	customCommand?: readonly string[];
	/** The newest published version of `packageName`. */
	latestVersion(): Promise<string>;
	installMethod(): Promise<InstallMethod>;
	/** Runs a command to completion; rejects with its exit status and output tail on failure. */
	run(argv: readonly string[]): Promise<void>;
	/** The built-in update of an npm global install. */
	npmInstallGlobal(spec: string): Promise<void>;
}

/** Registry lookups give up after this long. */
const LOOKUP_TIMEOUT_MS = 30_000;

export interface NpmSelfUpdateOptions {
	packageName: string;
	currentVersion: string;
	/** The root of the running package (a directory with its package.json). */
	packageDir: string;
	npmCommand: readonly string[];
	cwd: string;
	offline: boolean;
	customCommand?: readonly string[];
	env?: NodeJS.ProcessEnv;
}

/** The real environment: npm through the `npmCommand` setting, commands without a shell. */
export function npmSelfUpdateEnvironment(options: NpmSelfUpdateOptions): SelfUpdateEnvironment {
	const [npm, ...leading] = options.npmCommand;
	const run = (argv: readonly string[], timeoutMs?: number) => {
		const [command, ...args] = argv;
		return runPackageCommand(command!, args, {
			cwd: options.cwd,
			output: "capture",
			...(timeoutMs !== undefined ? { timeoutMs } : {}),
			...(options.env ? { env: options.env } : {}),
		});
	};
	return {
		packageName: options.packageName,
		currentVersion: options.currentVersion,
		offline: options.offline,
		...(options.customCommand ? { customCommand: options.customCommand } : {}),
		latestVersion: async () => {
			const text = await run(
				[npm!, ...leading, "view", options.packageName, "version", "--json"],
				LOOKUP_TIMEOUT_MS,
			);
			const parsed = JSON.parse(text) as unknown;
			const latest = Array.isArray(parsed) ? parsed.at(-1) : parsed;
			if (typeof latest !== "string") throw new Error(`unexpected answer from npm view: ${text.trim()}`);
			return latest;
		},
		installMethod: async () => {
			const prefix = await run([npm!, ...leading, "prefix", "-g"], LOOKUP_TIMEOUT_MS).then(
				(text) => text.trim(),
				() => undefined,
			);
			return detectInstallMethod(options.packageDir, prefix);
		},
		run: async (argv) => {
			await run(argv);
		},
		npmInstallGlobal: async (spec) => {
			await run([npm!, ...leading, "install", "-g", spec]);
		},
	};
}

function realpathOr(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}

/**
 * npm global when the package root lies in the global `node_modules` of `npmGlobalPrefix`; a source
 * checkout when a `.git` sits in the package root or above it; otherwise unknown.
 */
export function detectInstallMethod(packageDir: string, npmGlobalPrefix: string | undefined): InstallMethod {
	const root = realpathOr(packageDir);
	if (npmGlobalPrefix) {
		const modules = realpathOr(
			process.platform === "win32"
				? join(npmGlobalPrefix, "node_modules")
				: join(npmGlobalPrefix, "lib", "node_modules"),
		);
		if (root.startsWith(modules + sep)) return { kind: "npm-global" };
	}
	for (let dir = root; ; dir = dirname(dir)) {
		if (existsSync(join(dir, ".git"))) return { kind: "source-checkout", checkout: dir };
		if (dirname(dir) === dir) return { kind: "unknown", packageDir: root };
	}
}

/** Fills `{packageName}`, `{version}` and `{installSpec}` (= `name@version`) in each argument. */
export function expandSelfUpdateCommand(argv: readonly string[], packageName: string, version: string): string[] {
	return argv.map((arg) =>
		arg
			.replaceAll("{installSpec}", `${packageName}@${version}`)
			.replaceAll("{packageName}", packageName)
			.replaceAll("{version}", version),
	);
}

/**
 * `tau update` for tau itself (docs/design/cli.md#package-commands): a custom command or the built-in npm global
 * reinstall, only when a newer release exists unless forced. Returns the exit code.
 */
export async function runSelfUpdate(
	env: SelfUpdateEnvironment,
	io: MainIO,
	options: { force: boolean },
): Promise<number> {
	if (env.offline) {
		io.stderr(`Error: cannot update ${APP_NAME} while offline (--offline or TAU_OFFLINE): no network access.\n`);
		return 1;
	}
	const custom = env.customCommand && env.customCommand.length > 0 ? env.customCommand : undefined;
	let method: InstallMethod | undefined;
	if (!custom) {
		method = await env.installMethod();
		if (method.kind === "source-checkout") {
			io.stderr(
				`${APP_NAME} runs from a source checkout (${method.checkout}); it is not changed by "${APP_NAME} update".\n` +
					`Update it with "git pull" in that directory; the ./${APP_NAME} launcher rebuilds on its next start.\n`,
			);
			return 1;
		}
		if (method.kind === "unknown") {
			io.stderr(
				`Error: cannot tell how ${APP_NAME} was installed (${method.packageDir} is neither a global npm package nor a source checkout).\n` +
					`Set the selfUpdateCommand setting (or TAU_SELF_UPDATE_COMMAND) to the command that updates it, e.g. ["npm", "install", "-g", "{installSpec}"].\n`,
			);
			return 1;
		}
	}
	let latest: string;
	try {
		latest = await env.latestVersion();
	} catch (error) {
		io.stderr(`Error: could not look up the latest version of ${env.packageName}: ${errorMessage(error)}\n`);
		return 1;
	}
	const newer = isNewerVersion(latest, env.currentVersion);
	if (!newer && !options.force) {
		io.stdout(`${APP_NAME} is up to date (${env.currentVersion})\n`);
		return 0;
	}
	io.stdout(
		newer
			? `Updating ${APP_NAME} ${env.currentVersion} -> ${latest}...\n`
			: `Reinstalling ${APP_NAME} ${latest} (--force)...\n`,
	);
	try {
		if (custom) await env.run(expandSelfUpdateCommand(custom, env.packageName, latest));
		else await env.npmInstallGlobal(`${env.packageName}@${latest}`);
	} catch (error) {
		io.stderr(`Error: updating ${APP_NAME} failed: ${errorMessage(error)}\n`);
		return 1;
	}
	io.stdout(newer ? `Updated ${APP_NAME} to ${latest}\n` : `Reinstalled ${APP_NAME} ${latest}\n`);
	return 0;
}
