import { THINKING_LEVELS } from "../../cli/args.js";
import { BACKEND_CHOICES, type BackendChoice } from "../backend/choose-backend.js";

/** Parsed `tau eval <subcommand>` options (docs/eval.md lists them). */
export interface EvalArgs {
	positionals: string[];
	k?: number;
	model?: string;
	thinking?: string;
	extensions: string[];
	skills: string[];
	settings?: string;
	concurrency?: number;
	timeoutSec?: number;
	out?: string;
	filter?: string;
	backend?: BackendChoice;
	dockerCli?: string;
	shard?: string;
	resume?: string;
	help: boolean;
}

const VALUE_OPTIONS: Record<string, keyof EvalArgs> = {
	"-k": "k",
	"--model": "model",
	"--thinking": "thinking",
	"-e": "extensions",
	"--extension": "extensions",
	"--skill": "skills",
	"--settings": "settings",
	"--concurrency": "concurrency",
	"-j": "concurrency",
	"--timeout": "timeoutSec",
	"--out": "out",
	"-o": "out",
	"--filter": "filter",
	"--backend": "backend",
	"--docker-cli": "dockerCli",
	"--shard": "shard",
	"--resume": "resume",
};

const NUMBER_OPTIONS = new Set<keyof EvalArgs>(["k", "concurrency", "timeoutSec"]);

function positiveInteger(option: string, text: string, errors: string[]): number | undefined {
	const value = Number(text);
	if (Number.isInteger(value) && value > 0) return value;
	errors.push(`${option} expects a positive whole number, got "${text}"`);
	return undefined;
}

/** Parses options in any order; `--name=value` works as well as `--name value`. */
export function parseEvalArgs(argv: readonly string[]): { args: EvalArgs; errors: string[] } {
	const args: EvalArgs = { positionals: [], extensions: [], skills: [], help: false };
	const errors: string[] = [];
	for (let i = 0; i < argv.length; i++) {
		const raw = argv[i] as string;
		if (raw === "--help" || raw === "-h") {
			args.help = true;
			continue;
		}
		const equals = raw.startsWith("--") ? raw.indexOf("=") : -1;
		const option = equals > 0 ? raw.slice(0, equals) : raw;
		const key = VALUE_OPTIONS[option];
		if (!key) {
			if (raw.startsWith("-") && raw !== "-") errors.push(`Unknown option: ${raw}`);
			else args.positionals.push(raw);
			continue;
		}
		const value = equals > 0 ? raw.slice(equals + 1) : argv[++i];
		if (value === undefined) {
			errors.push(`${option} needs a value`);
			continue;
		}
		if (key === "extensions" || key === "skills") args[key].push(value);
		else if (NUMBER_OPTIONS.has(key)) {
			const number = positiveInteger(option, value, errors);
			if (number !== undefined) (args as unknown as Record<string, number>)[key] = number;
		} else if (key === "thinking") {
			if ((THINKING_LEVELS as readonly string[]).includes(value)) args.thinking = value;
			else errors.push(`--thinking expects one of ${THINKING_LEVELS.join(", ")}, got "${value}"`);
		} else if (key === "backend") {
			if ((BACKEND_CHOICES as readonly string[]).includes(value)) args.backend = value as BackendChoice;
			else errors.push(`--backend expects one of ${BACKEND_CHOICES.join(", ")}, got "${value}"`);
		} else (args as unknown as Record<string, string>)[key] = value;
	}
	return { args, errors };
}
