import { existsSync } from "node:fs";
import { parseArgs } from "./cli/args.js";
import { renderHelp } from "./cli/help.js";
import type { MainIO } from "./cli/main-io.js";
import { APP_NAME, VERSION } from "./config/app-identity.js";
import { applyOfflineFlag, isOffline } from "./config/env.js";

/** Package subcommands take over argv before option parsing (docs/design/cli.md#package-commands). */
const PACKAGE_SUBCOMMANDS = new Set(["install", "remove", "uninstall", "update", "list"]);
/** Subcommands that reach the network (logins, npm, MCP servers) and so honour the proxy first. */
const NETWORK_SUBCOMMANDS = new Set(["auth", "mcp", ...PACKAGE_SUBCOMMANDS]);

export type { MainIO } from "./cli/main-io.js";

const processIO: MainIO = {
	stdout: (text) => process.stdout.write(text),
	stderr: (text) => process.stderr.write(text),
};

function cwdExists(): boolean {
	try {
		return existsSync(process.cwd());
	} catch {
		return false;
	}
}

/**
 * Runs the CLI and returns the process exit code, in the dispatch order of docs/design/cli.md#dispatch-order. Only
 * what a path needs is imported: `--version` and errors load neither the runtime nor any provider.
 */
export async function main(argv: readonly string[], io: MainIO = processIO): Promise<number> {
	if (argv.includes("--offline") || isOffline()) applyOfflineFlag();
	process.env.AI_AGENT = APP_NAME;
	process.env.TAU_CODING_AGENT = "true";
	const [first] = argv;
	if (first !== undefined && NETWORK_SUBCOMMANDS.has(first)) {
		const { useConfiguredHttpProxy } = await import("./startup/http-proxy.js");
		await useConfiguredHttpProxy();
	}
	if (first === "auth") {
		const { runAuthCommand } = await import("./cli/auth-command.js");
		return runAuthCommand(argv.slice(1), io);
	}
	if (!cwdExists()) {
		io.stderr(
			"Error: The current working directory no longer exists. Change to an existing directory and try again.\n",
		);
		return 1;
	}
	if (first === "config") {
		const { runConfigCommand } = await import("./cli/config-command/config-command.js");
		return runConfigCommand(argv.slice(1), io);
	}
	if (first !== undefined && PACKAGE_SUBCOMMANDS.has(first)) {
		const { runPackagesCommand } = await import("./cli/packages-command.js");
		return runPackagesCommand(first, argv.slice(1), io);
	}
	if (first === "sessions") {
		const { runSessionsCommand } = await import("./cli/sessions-command.js");
		return runSessionsCommand(argv.slice(1), io);
	}
	if (first === "eval") {
		const { runEvalCommand } = await import("./eval/cli/eval-command.js");
		return runEvalCommand(argv.slice(1), io);
	}
	if (first === "mcp") {
		const { runMcpCommand } = await import("./cli/mcp-command.js");
		return runMcpCommand(argv.slice(1), io);
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
	if (args.export !== undefined) {
		try {
			const { exportSessionToHtml } = await import("./export/html-export.js");
			io.stdout(`Exported to: ${exportSessionToHtml(args.export, args.messages[0])}\n`);
			return 0;
		} catch (error) {
			io.stderr(`Error: ${error instanceof Error && error.message ? error.message : "Failed to export session"}\n`);
			return 1;
		}
	}
	if (args.help && io !== processIO) {
		// Embedders without a process (tests, tools) get the static help; the CLI lists extension flags too.
		io.stdout(renderHelp());
		return 0;
	}

	const { runCli } = await import("./startup/run-cli.js");
	return runCli(args, io);
}
