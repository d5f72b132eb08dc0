/**
 * The command-line tokenizer (docs/design/cli.md#tokenizer). Pure: argv in, a description of what was asked
 * out, with errors and warnings as values so `main` decides how to report them.
 */

export type OutputMode = "text" | "json" | "rpc";
/** The interactive display mode chosen with `--tui-mode`: regular scrollback or fullscreen. */
export type TuiMode = "regular" | "fullscreen";
export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const;
export type CliThinkingLevel = (typeof THINKING_LEVELS)[number];

export interface ParsedArgs {
	help: boolean;
	version: boolean;
	mode?: OutputMode;
	print: boolean;
	continue: boolean;
	resume: boolean;
	provider?: string;
	model?: string;
	apiKey?: string;
	thinking?: CliThinkingLevel;
	models?: string[];
	systemPrompt?: string;
	appendSystemPrompt: string[];
	session?: string;
	sessionId?: string;
	fork?: string;
	sessionDir?: string;
	export?: string;
	name?: string;
	extensions: string[];
	skills: string[];
	promptTemplates: string[];
	themes: string[];
	useTheme?: string;
	tools?: string[];
	/** The token used for `--tools` (`--tools` or `-t`), for error messages. */
	toolsFlag?: string;
	excludeTools?: string[];
	/** `true` for a bare `--list-models`, a string for `--list-models <search>`. */
	listModels?: true | string;
	tuiMode?: TuiMode;
	noSession: boolean;
	noTools: boolean;
	noBuiltinTools: boolean;
	noExtensions: boolean;
	noMcp: boolean;
	noSkills: boolean;
	noPromptTemplates: boolean;
	noThemes: boolean;
	noContextFiles: boolean;
	verbose: boolean;
	offline: boolean;
	/** tau only: run against the built-in scripted demo model. */
	offlineDemo: boolean;
	/** tau only: json/rpc output also carries the events Pi does not emit. */
	tauEvents: boolean;
	/** Project-trust override for this process; last of `--approve` / `--no-approve` wins. */
	approve?: boolean;
	fileArgs: string[];
	messages: string[];
	/** Unknown long flags, matched later against flags registered by extensions. */
	unknownFlags: Map<string, string | true>;
	errors: string[];
	warnings: string[];
}

/** Flags that take the next token (whatever it looks like) as their value when one exists. */
const VALUE_FLAGS: Record<string, keyof ParsedArgs> = {
	"--provider": "provider",
	"--model": "model",
	"--api-key": "apiKey",
	"--system-prompt": "systemPrompt",
	"--session": "session",
	"--session-id": "sessionId",
	"--fork": "fork",
	"--session-dir": "sessionDir",
	"--export": "export",
	"--skill": "skills",
	"--prompt-template": "promptTemplates",
	"--theme": "themes",
	"-e": "extensions",
	"--extension": "extensions",
	"--append-system-prompt": "appendSystemPrompt",
	"--models": "models",
	"-t": "tools",
	"--tools": "tools",
	"-xt": "excludeTools",
	"--exclude-tools": "excludeTools",
	"--thinking": "thinking",
};

const BOOLEAN_FLAGS: Record<string, keyof ParsedArgs> = {
	"-h": "help",
	"--help": "help",
	"-v": "version",
	"--version": "version",
	"-c": "continue",
	"--continue": "continue",
	"-r": "resume",
	"--resume": "resume",
	"--no-session": "noSession",
	"-nt": "noTools",
	"--no-tools": "noTools",
	"-nbt": "noBuiltinTools",
	"--no-builtin-tools": "noBuiltinTools",
	"-ne": "noExtensions",
	"--no-extensions": "noExtensions",
	"--no-mcp": "noMcp",
	"-ns": "noSkills",
	"--no-skills": "noSkills",
	"-np": "noPromptTemplates",
	"--no-prompt-templates": "noPromptTemplates",
	"--no-themes": "noThemes",
	"-nc": "noContextFiles",
	"--no-context-files": "noContextFiles",
	"--verbose": "verbose",
	"--offline": "offline",
	"--offline-demo": "offlineDemo",
	"--tau-events": "tauEvents",
};

function emptyArgs(): ParsedArgs {
	return {
		help: false,
		version: false,
		print: false,
		continue: false,
		resume: false,
		appendSystemPrompt: [],
		extensions: [],
		skills: [],
		promptTemplates: [],
		themes: [],
		noSession: false,
		noTools: false,
		noBuiltinTools: false,
		noExtensions: false,
		noMcp: false,
		noSkills: false,
		noPromptTemplates: false,
		noThemes: false,
		noContextFiles: false,
		verbose: false,
		offline: false,
		offlineDemo: false,
		tauEvents: false,
		fileArgs: [],
		messages: [],
		unknownFlags: new Map(),
		errors: [],
		warnings: [],
	};
}

/** Splits a comma-separated list, trimming items and dropping empty ones. */
export function splitList(value: string): string[] {
	return value
		.split(",")
		.map((item) => item.trim())
		.filter((item) => item !== "");
}

function validateToolList(flag: string, items: readonly string[]): string | undefined {
	const modifiers = items.filter((item) => item.startsWith("+") || item.startsWith("-"));
	if (modifiers.length > 0 && modifiers.length < items.length) {
		return `${flag}: tool names cannot be mixed with +name or -name entries`;
	}
	const pattern = modifiers.find((item) => item.includes("*"));
	if (pattern) return `${flag}: +name and -name entries take exact tool names, not patterns: ${pattern}`;
	return undefined;
}

function applyValue(args: ParsedArgs, flag: string, field: keyof ParsedArgs, value: string): void {
	switch (field) {
		case "appendSystemPrompt":
		case "extensions":
		case "skills":
		case "promptTemplates":
		case "themes":
			(args[field] as string[]).push(value);
			return;
		case "models":
			args.models = splitList(value);
			return;
		case "excludeTools":
			args.excludeTools = splitList(value);
			return;
		case "tools": {
			args.tools = splitList(value);
			args.toolsFlag = flag;
			return;
		}
		case "thinking":
			if ((THINKING_LEVELS as readonly string[]).includes(value)) args.thinking = value as CliThinkingLevel;
			else args.warnings.push(`Invalid thinking level "${value}". Valid values: ${THINKING_LEVELS.join(", ")}`);
			return;
		default:
			(args as unknown as Record<string, unknown>)[field] = value;
	}
}

/**
 * Parses `tau` command-line arguments into options, messages and `@file` arguments; unknown flags are kept for
 * extensions.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
	const args = emptyArgs();
	let i = 0;
	const next = (): string | undefined => argv[i + 1];

	for (; i < argv.length; i++) {
		const arg = argv[i]!;
		if (arg === "--") {
			for (const rest of argv.slice(i + 1)) {
				if (rest.startsWith("@")) args.fileArgs.push(rest.slice(1));
				else args.messages.push(rest);
			}
			break;
		}
		const booleanField = BOOLEAN_FLAGS[arg];
		if (booleanField) {
			(args as unknown as Record<string, unknown>)[booleanField] = true;
			continue;
		}
		const valueField = VALUE_FLAGS[arg];
		if (valueField) {
			const value = next();
			if (value === undefined) {
				args.errors.push(`${arg} requires a value`);
				continue;
			}
			i++;
			applyValue(args, arg, valueField, value);
			continue;
		}
		switch (arg) {
			case "--mode": {
				const value = next();
				if (value === undefined || value.startsWith("-")) {
					args.errors.push("--mode requires text, json, or rpc");
				} else {
					i++;
					if (value === "text" || value === "json" || value === "rpc") args.mode = value;
					else args.errors.push(`Invalid mode "${value}". Valid values: text, json, rpc`);
				}
				continue;
			}
			case "-p":
			case "--print": {
				args.print = true;
				const value = next();
				if (value !== undefined && !value.startsWith("@") && (!value.startsWith("-") || value.startsWith("---"))) {
					args.messages.push(value);
					i++;
				}
				continue;
			}
			case "-n":
			case "--name": {
				const value = next();
				if (value === undefined) args.errors.push("--name requires a value");
				else {
					args.name = value;
					i++;
				}
				continue;
			}
			case "--use-theme": {
				const value = next();
				if (value === undefined || value.startsWith("-")) args.errors.push("--use-theme requires a theme name");
				else {
					args.useTheme = value;
					i++;
				}
				continue;
			}
			case "--list-models": {
				const value = next();
				if (value !== undefined && !value.startsWith("-") && !value.startsWith("@")) {
					args.listModels = value;
					i++;
				} else {
					args.listModels = true;
				}
				continue;
			}
			case "--tui-mode": {
				const value = next();
				if (value === undefined || value.startsWith("-")) {
					args.errors.push("--tui-mode requires regular or fullscreen");
				} else {
					i++;
					if (value === "regular" || value === "fullscreen") args.tuiMode = value;
					else args.errors.push(`Invalid TUI mode "${value}". Valid values: regular, fullscreen`);
				}
				continue;
			}
			case "-a":
			case "--approve":
				args.approve = true;
				continue;
			case "-na":
			case "--no-approve":
				args.approve = false;
				continue;
		}
		if (arg.startsWith("@")) {
			args.fileArgs.push(arg.slice(1));
		} else if (arg.startsWith("--")) {
			const eq = arg.indexOf("=");
			if (eq > 2) {
				args.unknownFlags.set(arg.slice(2, eq), arg.slice(eq + 1));
			} else {
				const value = next();
				if (value !== undefined && !value.startsWith("-") && !value.startsWith("@")) {
					args.unknownFlags.set(arg.slice(2), value);
					i++;
				} else {
					args.unknownFlags.set(arg.slice(2), true);
				}
			}
		} else if (arg.startsWith("-")) {
			args.errors.push(`Unknown option: ${arg}`);
		} else {
			args.messages.push(arg);
		}
	}

	if (args.tools && args.toolsFlag) {
		const error = validateToolList(args.toolsFlag, args.tools);
		if (error) args.errors.push(error);
	}
	return args;
}
