import { APP_NAME } from "../config/app-identity.js";
import { isOffline } from "../config/env.js";
import { SettingsManager } from "../config/index.js";
import { getAgentDir } from "../config/paths.js";
import { resolveCommandTrust } from "./command-trust.js";
import type { MainIO } from "./main-io.js";

const USAGE: Record<string, string> = {
	install: `Usage: ${APP_NAME} install <source> [-l|--local] [-a|--approve] [-na|--no-approve]`,
	remove: `Usage: ${APP_NAME} remove <source> [-l|--local] [-a|--approve] [-na|--no-approve]`,
	uninstall: `Usage: ${APP_NAME} uninstall <source> [-l|--local] [-a|--approve] [-na|--no-approve]`,
	list: `Usage: ${APP_NAME} list [-a|--approve] [-na|--no-approve]`,
	update: `Usage: ${APP_NAME} update [<source>] [--extensions] [--extension <source>] [-a|--approve] [-na|--no-approve]`,
};

interface PackageArgs {
	local: boolean;
	approve?: boolean;
	sources: string[];
	extensions: boolean;
	self: boolean;
}

function parsePackageArgs(command: string, argv: readonly string[]): PackageArgs {
	const args: PackageArgs = { local: false, sources: [], extensions: false, self: false };
	const scoped = command !== "list" && command !== "update";
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i]!;
		if (arg === "-a" || arg === "--approve") args.approve = true;
		else if (arg === "-na" || arg === "--no-approve") args.approve = false;
		else if (scoped && (arg === "-l" || arg === "--local")) args.local = true;
		else if (command === "update" && arg === "--extensions") args.extensions = true;
		else if (command === "update" && arg === "--self") args.self = true;
		else if (command === "update" && arg === "--extension") {
			const source = argv[++i];
			if (source === undefined || args.sources.length > 0) throw new Error(USAGE.update);
			args.sources.push(source);
		} else if (arg.startsWith("-") && arg !== "-") throw new Error(`Unknown option ${arg} for "${command}".`);
		else args.sources.push(arg);
	}
	return args;
}

/**
 * `list` and the project-scope (`-l`) `install` and `remove` may ask about trust on a terminal;
 * `update` and user-scope changes never ask.
 */
function mayAskTrust(command: string, args: PackageArgs): boolean {
	return command === "list" || (command !== "update" && args.local);
}

/** `tau install | remove | uninstall | list | update` for packages; returns the exit code. */
export async function runPackagesCommand(command: string, argv: readonly string[], io: MainIO): Promise<number> {
	let args: PackageArgs;
	try {
		args = parsePackageArgs(command, argv);
	} catch (error) {
		const message = (error as Error).message;
		io.stderr(message === USAGE[command] ? `${message}\n` : `${message}\n${USAGE[command]}\n`);
		return 1;
	}
	const needsSource = command === "install" || command === "remove" || command === "uninstall";
	if ((needsSource && args.sources.length !== 1) || (!needsSource && args.sources.length > 1)) {
		io.stderr(`${USAGE[command]}\n`);
		return 1;
	}
	const selfUpdate = command === "update" && (args.self || (!args.extensions && args.sources.length === 0));
	const selfTarget = command === "update" && ["self", "pi", APP_NAME].includes(args.sources[0] ?? "");
	if (selfUpdate || selfTarget) {
		io.stderr(
			`Error: updating ${APP_NAME} itself is not available in this version yet. Use "${APP_NAME} update --extensions" for packages.\n`,
		);
		return 1;
	}
	if (command === "update" && args.extensions && args.sources.length > 0) {
		io.stderr(`${USAGE.update}\n`);
		return 1;
	}

	const cwd = process.cwd();
	const agentDir = getAgentDir();
	try {
		const trusted = await resolveCommandTrust({
			cwd,
			agentDir,
			...(args.approve !== undefined ? { approve: args.approve } : {}),
			mayAsk: mayAskTrust(command, args),
		});
		const settings = SettingsManager.create(cwd, agentDir, { projectTrusted: trusted });
		const resources = await import("../core/resources/index.js");
		const context = { cwd, agentDir, settings, npmCommand: settings.getNpmCommand(), output: "inherit" as const };
		if (command === "list") {
			io.stdout(`${resources.listPackages(context).join("\n")}\n`);
			return 0;
		}
		if (command === "update") {
			const report = await resources.updatePackages({
				...context,
				...(args.sources[0] !== undefined ? { source: args.sources[0] } : {}),
				offline: isOffline(),
			});
			for (const warning of report.warnings) io.stderr(`Warning: ${warning}\n`);
			io.stdout(`${report.summary.join("\n")}\n`);
			return report.warnings.length > 0 ? 1 : 0;
		}
		const source = args.sources[0]!;
		const line =
			command === "install"
				? await resources.installAndPersist(source, { local: args.local }, context)
				: await resources.removePackage(source, { local: args.local }, context);
		io.stdout(`${line}\n`);
		return 0;
	} catch (error) {
		io.stderr(`Error: ${(error as Error).message}\n`);
		return 1;
	}
}
