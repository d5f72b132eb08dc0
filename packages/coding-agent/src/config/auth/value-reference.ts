import { execSync } from "node:child_process";

/** A parsed config value: a `!command`, or a template of literal text and env references. */
export type ConfigValueReference =
	| { kind: "command"; command: string }
	| { kind: "template"; parts: readonly (string | { env: string })[] };

export type EnvOverlay = Readonly<Record<string, string | undefined>>;

export const COMMAND_TIMEOUT_MS = 10_000;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

/**
 * Parses `!command`, `$VAR`, `${VAR}`, `$$` (literal `$`) and `$!` (literal `!`). Anything that is
 * not a valid reference stays literal text.
 */
export function parseConfigValue(value: string): ConfigValueReference {
	if (value.startsWith("!")) return { kind: "command", command: value.slice(1) };
	const parts: (string | { env: string })[] = [];
	let literal = "";
	let i = 0;
	while (i < value.length) {
		const char = value[i]!;
		if (char !== "$") {
			literal += char;
			i++;
			continue;
		}
		const next = value[i + 1];
		if (next === "$" || next === "!") {
			literal += next;
			i += 2;
			continue;
		}
		if (next === "{") {
			const close = value.indexOf("}", i + 2);
			if (close < 0) {
				literal += "$";
				i++;
				continue;
			}
			const name = value.slice(i + 2, close);
			if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
				if (literal) parts.push(literal);
				literal = "";
				parts.push({ env: name });
			} else {
				literal += value.slice(i, close + 1);
			}
			i = close + 1;
			continue;
		}
		NAME.lastIndex = i + 1;
		const match = NAME.exec(value);
		if (match) {
			if (literal) parts.push(literal);
			literal = "";
			parts.push({ env: match[0] });
			i += 1 + match[0].length;
			continue;
		}
		literal += "$";
		i++;
	}
	if (literal) parts.push(literal);
	return { kind: "template", parts };
}

/** Escapes a literal typed by the user so it resolves back to itself (`$` -> `$$`, leading `!` -> `$!`). */
export function escapeConfigValue(literal: string): string {
	const escaped = literal.replaceAll("$", "$$$$");
	return escaped.startsWith("!") ? `$${escaped}` : escaped;
}

function envValue(name: string, env: EnvOverlay | undefined): string | undefined {
	// An empty value counts as unset, in the overlay and in the process environment.
	return env?.[name] || process.env[name] || undefined;
}

export interface CommandOptions {
	timeoutMs?: number;
}

/** Runs a `!command` through the shell; non-zero exit, timeout or empty output resolve to undefined. */
export function runValueCommand(command: string, options: CommandOptions = {}): string | undefined {
	try {
		const output = execSync(command, {
			stdio: ["ignore", "pipe", "ignore"],
			timeout: options.timeoutMs ?? COMMAND_TIMEOUT_MS,
			encoding: "utf8",
		});
		const trimmed = output.trim();
		return trimmed === "" ? undefined : trimmed;
	} catch {
		return undefined;
	}
}

/** Resolves a value, running commands every time (models.json values and headers). */
export function resolveConfigValueUncached(
	value: string,
	env?: EnvOverlay,
	options: CommandOptions = {},
): string | undefined {
	const reference = parseConfigValue(value);
	if (reference.kind === "command") return runValueCommand(reference.command, options);
	let resolved = "";
	for (const part of reference.parts) {
		if (typeof part === "string") {
			resolved += part;
			continue;
		}
		const fromEnv = envValue(part.env, env);
		if (fromEnv === undefined) return undefined;
		resolved += fromEnv;
	}
	return resolved;
}

const commandCache = new Map<string, string | undefined>();

/**
 * Resolves a value, caching command results per exact string for the process lifetime (failures
 * too, so a failing command is not retried until restart). Used for auth.json keys.
 */
export function resolveConfigValue(value: string, env?: EnvOverlay, options: CommandOptions = {}): string | undefined {
	const reference = parseConfigValue(value);
	if (reference.kind !== "command") return resolveConfigValueUncached(value, env);
	if (!commandCache.has(value)) commandCache.set(value, runValueCommand(reference.command, options));
	return commandCache.get(value);
}

/** Resolves a value or throws an error naming what could not be resolved. */
export function resolveConfigValueOrThrow(value: string, description: string, env?: EnvOverlay): string {
	const resolved = resolveConfigValueUncached(value, env);
	if (resolved !== undefined) return resolved;
	const reference = parseConfigValue(value);
	if (reference.kind === "command") {
		throw new Error(`Failed to resolve ${description} from shell command: ${reference.command}`);
	}
	const missing = reference.parts
		.filter((part): part is { env: string } => typeof part !== "string")
		.map((part) => part.env)
		.filter((name) => envValue(name, env) === undefined);
	if (missing.length === 1)
		throw new Error(`Failed to resolve ${description} from environment variable: ${missing[0]}`);
	if (missing.length > 1) {
		throw new Error(`Failed to resolve ${description} from environment variables: ${missing.join(", ")}`);
	}
	throw new Error(`Failed to resolve ${description}`);
}

/** Resolves header values leniently: unresolved or empty values are dropped. */
export function resolveHeaders(headers: Readonly<Record<string, string>>, env?: EnvOverlay): Record<string, string> {
	const resolved: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		const result = resolveConfigValueUncached(value, env);
		if (result) resolved[name] = result;
	}
	return resolved;
}

/** Resolves configured header values strictly: an unresolved value is an error. */
export function resolveHeadersOrThrow(
	headers: Readonly<Record<string, string>>,
	env?: EnvOverlay,
): Record<string, string> {
	const resolved: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		resolved[name] = resolveConfigValueOrThrow(value, `header "${name}"`, env);
	}
	return resolved;
}
