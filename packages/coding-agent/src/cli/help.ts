import { APP_NAME, CONFIG_DIR_NAME, ENV_AGENT_DIR, ENV_SESSION_DIR, envName } from "../config/app-identity.js";

/** A flag registered by an extension, listed in its own help section. */
export interface HelpExtensionFlag {
	name: string;
	type: "boolean" | "string";
	description?: string;
	extensionPath: string;
}

const OPTION_ROWS: ReadonlyArray<readonly [string, string]> = [
	["Model options", ""],
	["--provider <name>", "Restrict --model lookup to one provider"],
	["--model <pattern>", "Model id, provider/id or fuzzy match; optional :<thinking> suffix"],
	["--api-key <key>", "API key for the chosen model's provider (not saved)"],
	["--thinking <level>", "off, minimal, low, medium, high, xhigh, max"],
	["--models <patterns>", "Comma-separated model scope for startup and cycling (globs allowed)"],
	["--list-models [search]", "List available models and exit"],
	["--offline-demo", "Use the built-in scripted demo model (no key, no network)"],
	["Session options", ""],
	["-c, --continue", "Continue the most recent session of this directory"],
	["-r, --resume", "Pick a session to resume"],
	["--session <path|id>", "Open a session file or id"],
	["--session-id <id>", "Open or create the session with this id"],
	["--fork <path|id>", "Fork a session into a new session in this directory"],
	["--session-dir <dir>", "Where sessions are stored and looked up"],
	["--no-session", "Do not save this session"],
	["-n, --name <name>", "Display name for the session"],
	["--export <file> [out]", "Export a session file to HTML and exit"],
	["Tool options", ""],
	["-t, --tools <list>", "Tool allowlist (patterns), or +name/-name changes to the default set"],
	["-xt, --exclude-tools <list>", "Remove tools (patterns) after all other selection"],
	["-nbt, --no-builtin-tools", "Disable the default built-in tools"],
	["-nt, --no-tools", "Start with every tool disabled"],
	["Resource options", ""],
	["-e, --extension <source>", "Load an extension (repeatable)"],
	["-ne, --no-extensions", "Disable discovered and configured extensions"],
	["--no-mcp", "Disable the built-in MCP extension"],
	["--skill <path>", "Load a skill (repeatable)"],
	["-ns, --no-skills", "Disable discovered and configured skills"],
	["--prompt-template <path>", "Load a prompt template (repeatable)"],
	["-np, --no-prompt-templates", "Disable discovered and configured prompt templates"],
	["--theme <path>", "Load a theme (repeatable)"],
	["--no-themes", "Disable discovered and configured themes"],
	["--use-theme <name>", "Interactive theme for this run"],
	["-nc, --no-context-files", "Do not load AGENTS.md / CLAUDE.md"],
	["Prompt and process options", ""],
	["--system-prompt <text|file>", "Replace the system prompt"],
	["--append-system-prompt <text|file>", "Append to the system prompt (repeatable)"],
	["--mode <text|json|rpc>", "Output mode"],
	["--tau-events", "json/rpc: also stream the events only tau emits"],
	["-p, --print", "One-shot: print the final answer and exit"],
	["--tui-mode <regular|fullscreen>", "Interactive renderer for this run"],
	["-a, --approve", "Trust this project's local configuration for this run"],
	["-na, --no-approve", "Ignore this project's local configuration for this run"],
	["--offline", "Disable automatic network activity"],
	["--verbose", "Show full startup details"],
	["-h, --help", "Show this help"],
	["-v, --version", "Show the version"],
];

const SUBCOMMANDS: ReadonlyArray<readonly [string, string]> = [
	["install <source> [-l]", "Install a package and add it to settings"],
	["remove <source> [-l]", "Remove a package"],
	["update [--force]", "Update tau itself"],
	["update <source> | --extensions", "Update one package, or all"],
	["update --all | --models", "Update tau and packages; refresh model catalogs"],
	["list", "List configured packages"],
	["config [-l]", "Enable or disable extensions, skills, prompts and themes"],
	["auth <login|logout|check|...>", "Sign in to providers and check or print credentials"],
	["mcp <add|remove|list|login|logout>", "Manage MCP servers"],
	["sessions import-pi [--all]", "Import sessions written by Pi"],
	["eval <run|report|compare|...>", "Measure an agent setup on tasks (pass^k)"],
];

function table(rows: ReadonlyArray<readonly [string, string]>, indent = "  ", column = 38): string[] {
	return rows.map(([left, right]) =>
		right === "" ? `\n${left}:` : `${indent}${left.padEnd(column - indent.length)}${right}`,
	);
}

export function renderHelp(extensionFlags: readonly HelpExtensionFlag[] = []): string {
	const app = APP_NAME;
	const lines = [
		`${app} — a minimal, extensible coding agent for the terminal`,
		"",
		"Usage:",
		`  ${app} [options] [--] [@files...] [messages...]`,
		`  ${app} <command> [options]`,
		"",
		"Commands:",
		...table(SUBCOMMANDS),
		// Each option group brings its own heading (and the blank line before it).
		...table(OPTION_ROWS),
	];
	if (extensionFlags.length > 0) {
		lines.push("", "Extension CLI Flags:");
		for (const flag of extensionFlags) {
			const left = `--${flag.name}${flag.type === "string" ? " <value>" : ""}`;
			lines.push(`  ${left.padEnd(28)}${flag.description ?? `Registered by ${flag.extensionPath}`}`);
		}
	}
	lines.push(
		"",
		"Examples:",
		`  ${app}                                  Start an interactive session`,
		`  ${app} -p "Summarize README.md"         One-shot answer on stdout`,
		`  git diff | ${app} -p "Review this"      Piped input becomes part of the prompt`,
		`  ${app} --offline-demo -p "look around"  Try tau offline with the demo model`,
		`  ${app} --mode rpc                       JSONL protocol on stdin/stdout`,
		"",
		"Environment:",
		`  ${ENV_AGENT_DIR.padEnd(36)}Agent directory (default ~/${CONFIG_DIR_NAME}/agent)`,
		`  ${ENV_SESSION_DIR.padEnd(36)}Session directory`,
		`  ${envName("OFFLINE").padEnd(36)}Same as --offline`,
		`  ${"ANTHROPIC_API_KEY, OPENAI_API_KEY, ...".padEnd(36)}Provider API keys`,
		"",
		"Built-in tools: read, bash, edit, write (default), grep, find, ls",
	);
	return `${lines.join("\n")}\n`;
}
