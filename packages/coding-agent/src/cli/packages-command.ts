import { APP_NAME } from "../config/app-identity.js";
import { npmCommandOrDefault } from "../config/settings/normalize.js";
import type { MainIO } from "./main-io.js";
import { openPackageSettings } from "./package-settings.js";

const USAGE: Record<string, string> = {
	install: `Usage: ${APP_NAME} install <source> [-l|--local] [-a|--approve] [-na|--no-approve]`,
	remove: `Usage: ${APP_NAME} remove <source> [-l|--local] [-a|--approve] [-na|--no-approve]`,
	uninstall: `Usage: ${APP_NAME} uninstall <source> [-l|--local] [-a|--approve] [-na|--no-approve]`,
	list: `Usage: ${APP_NAME} list [-a|--approve] [-na|--no-approve]`,
};

interface PackageArgs {
	local: boolean;
	approve?: boolean;
	sources: string[];
}

function parsePackageArgs(command: string, argv: readonly string[]): PackageArgs {
	const args: PackageArgs = { local: false, sources: [] };
	const scoped = command !== "list";
	for (const arg of argv) {
		if (arg === "-a" || arg === "--approve") args.approve = true;
		else if (arg === "-na" || arg === "--no-approve") args.approve = false;
		else if (scoped && (arg === "-l" || arg === "--local")) args.local = true;
		else if (arg.startsWith("-") && arg !== "-") throw new Error(`Unknown option ${arg} for "${command}".`);
		else args.sources.push(arg);
	}
	return args;
}

/** `tau install | remove | uninstall | list | update`; returns the exit code. */
export async function runPackagesCommand(command: string, argv: readonly string[], io: MainIO): Promise<number> {
	if (command === "update") {
		const { runUpdateCommand } = await import("./update-command.js");
		return runUpdateCommand(argv, io);
	}
	let args: PackageArgs;
	try {
		args = parsePackageArgs(command, argv);
	} catch (error) {
		io.stderr(`${(error as Error).message}\n${USAGE[command]}\n`);
		return 1;
	}
	const needsSource = command !== "list";
	if ((needsSource && args.sources.length !== 1) || (!needsSource && args.sources.length > 1)) {
		io.stderr(`${USAGE[command]}\n`);
		return 1;
	}
	try {
		const { cwd, agentDir, settings } = await openPackageSettings({
			...(args.approve !== undefined ? { approve: args.approve } : {}),
			mayAsk: command === "list" || args.local,
		});
		const resources = await import("../core/resources/index.js");
		const context = {
			cwd,
			agentDir,
			settings,
			npmCommand: npmCommandOrDefault(settings.getNpmCommand()),
			output: "inherit" as const,
		};
		if (command === "list") {
			io.stdout(`${resources.listPackages(context).join("\n")}\n`);
			return 0;
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
