import { parseArgs } from "./cli/args.js";
import { renderHelp } from "./cli/help.js";
import { APP_NAME, VERSION } from "./config/app-identity.js";

/** Subcommands that take over argv before option parsing (cli-modes.md §3). */
const SUBCOMMANDS = new Set(["install", "remove", "uninstall", "update", "list", "config", "auth", "mcp"]);

export interface MainIO {
	stdout: (text: string) => void;
	stderr: (text: string) => void;
}

const processIO: MainIO = {
	stdout: (text) => process.stdout.write(text),
	stderr: (text) => process.stderr.write(text),
};

/** Runs the CLI and returns the process exit code. */
export async function main(argv: readonly string[], io: MainIO = processIO): Promise<number> {
	const [first] = argv;
	if (first !== undefined && SUBCOMMANDS.has(first)) {
		io.stderr(`Error: "${APP_NAME} ${first}" is not available in this version of ${APP_NAME} yet.\n`);
		return 1;
	}

	const args = parseArgs(argv);
	for (const warning of args.warnings) io.stderr(`Warning: ${warning}\n`);
	if (args.errors.length > 0) {
		for (const error of args.errors) io.stderr(`Error: ${error}\n`);
		return 1;
	}
	if (args.version) {
		io.stdout(`${VERSION}\n`);
		return 0;
	}
	if (args.help) {
		io.stdout(renderHelp());
		return 0;
	}
	io.stderr(`Error: ${APP_NAME} ${VERSION} has no run modes yet; try "${APP_NAME} --help".\n`);
	return 1;
}
