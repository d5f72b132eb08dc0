import { homedir } from "node:os";
import { join } from "node:path";
import type { Terminal } from "@tau/tui";
import { builtinExtensionFactories } from "../../builtin/builtin-extensions.js";
import { APP_NAME } from "../../config/app-identity.js";
import { formatSettingsWarning, getAgentDir, getProjectConfigDir, SettingsManager } from "../../config/index.js";
import { resolveCommandTrust } from "../command-trust.js";
import type { MainIO } from "../main-io.js";
import { ResourceConfig } from "./resource-config.js";

const USAGE = `Usage: ${APP_NAME} config [-l|--local] [-a|--approve] [-na|--no-approve]`;
const HELP = [
	USAGE,
	"",
	"Enable or disable extensions, skills, prompt templates and themes: every resource of the user",
	'and project configuration, package resources per package, built-in extensions under "Built-in".',
	"Space/Enter toggles, Tab switches between the user and the project scope, Esc/q quits.",
	"Changes are written to settings.json as they are made.",
	"",
	"  -l, --local         Start in the project scope (the project must be trusted)",
	"  -a, --approve       Trust this project's local configuration for this run",
	"  -na, --no-approve   Ignore this project's local configuration for this run",
].join("\n");

interface ConfigArgs {
	local: boolean;
	approve?: boolean;
	help: boolean;
}

function parseConfigArgs(argv: readonly string[]): ConfigArgs {
	const args: ConfigArgs = { local: false, help: false };
	for (const arg of argv) {
		if (arg === "-l" || arg === "--local") args.local = true;
		else if (arg === "-a" || arg === "--approve") args.approve = true;
		else if (arg === "-na" || arg === "--no-approve") args.approve = false;
		else if (arg === "-h" || arg === "--help") args.help = true;
		else if (arg.startsWith("-")) throw new Error(`Unknown option ${arg} for "config".`);
		else throw new Error(`Unexpected argument ${arg}.`);
	}
	return args;
}

/** Where the command runs; tests pass directories and a virtual terminal. */
export interface ConfigCommandContext {
	cwd: string;
	agentDir: string;
	homeDir: string;
	/** The terminal the list draws on; without one stdin and stdout must be terminals. */
	terminal?: Terminal;
}

/**
 * `tau config [-l] [-a|-na]` (docs/design/resources.md#commands): trust is resolved as for the package commands;
 * `-l` needs a trusted project; the list needs a terminal. Returns the exit code.
 */
export async function runConfigCommand(
	argv: readonly string[],
	io: MainIO,
	context: Partial<ConfigCommandContext> = {},
): Promise<number> {
	let args: ConfigArgs;
	try {
		args = parseConfigArgs(argv);
	} catch (error) {
		io.stderr(`${(error as Error).message}\n${USAGE}\n`);
		return 1;
	}
	if (args.help) {
		io.stdout(`${HELP}\n`);
		return 0;
	}
	const cwd = context.cwd ?? process.cwd();
	const agentDir = context.agentDir ?? getAgentDir();
	const homeDir = context.homeDir ?? homedir();
	const trusted = await resolveCommandTrust({
		cwd,
		agentDir,
		...(args.approve !== undefined ? { approve: args.approve } : {}),
		mayAsk: true,
	});
	if (args.local && !trusted) {
		io.stderr("Error: Project is not trusted. Use --approve to modify local resource config.\n");
		return 1;
	}
	const terminal = context.terminal;
	if (terminal === undefined && !(process.stdin.isTTY === true && process.stdout.isTTY === true)) {
		io.stderr(`Error: ${APP_NAME} config requires an interactive terminal\n`);
		return 1;
	}
	const settings = SettingsManager.create(cwd, agentDir, { projectTrusted: trusted });
	for (const error of settings.drainErrors()) io.stderr(`${formatSettingsWarning("config", error)}\n`);
	const config = new ResourceConfig({
		cwd,
		agentDir,
		settings,
		homeDir,
		builtinExtensionNames: builtinExtensionFactories().map((extension) => extension.name),
	});
	const scope = args.local ? "project" : "user";
	for (const diagnostic of config.items(scope).diagnostics) io.stderr(`Warning: ${diagnostic.message}\n`);
	const { runConfigTui } = await import("./config-tui.js");
	await runConfigTui({
		config,
		scope,
		places: { cwd, homeDir },
		settingsFiles: {
			user: join(agentDir, "settings.json"),
			project: join(getProjectConfigDir(cwd), "settings.json"),
		},
		...(terminal ? { terminal } : {}),
	});
	for (const error of settings.drainErrors()) io.stderr(`${formatSettingsWarning("config", error)}\n`);
	return 0;
}
