/** The `// @options:` source format of codemode input. No Node imports: usable anywhere. */

export const CODEMODE_OPTIONS_PREFIX = "// @options:";

/** Lark grammar for grammar-constrained tool input: an optional options line, then raw source. */
export const CODEMODE_SOURCE_GRAMMAR = String.raw`start: options_source | plain_source
options_source: OPTIONS_LINE NEWLINE SOURCE
plain_source: SOURCE
OPTIONS_LINE: /[ \t]*\/\/ @options:[^\r\n]*/
NEWLINE: /\r?\n/
SOURCE: /[\s\S]+/
`;

/** The options a script may set on its first line (`// @options: {"timeout_ms": …, "max_output_tokens": …}`). */
export interface CodemodeSourceOptions {
	maxOutputTokens?: number;
	timeoutMs?: number;
}

/**
 * The result of `parseCodemodeSource`: the script code (line numbers kept) and the options of its `// @options:` line.
 */
export interface CodemodeSource {
	code: string;
	options: CodemodeSourceOptions;
}

/**
 * Thrown by `parseCodemodeSource` for an empty script or a misplaced or invalid `// @options:` line; the message says
 * what to fix.
 */
export class CodemodeSourceError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "CodemodeSourceError";
	}
}

const MAX_TIMEOUT_MS = 2_147_483_647;

/** Splits an optional first-line options object from the script, keeping line numbers intact. */
export function parseCodemodeSource(input: string): CodemodeSource {
	if (input.trim() === "") throw new CodemodeSourceError("The script is empty");
	const lines = input.split("\n");
	for (let i = 1; i < lines.length; i++) {
		if (lines[i]!.trimStart().startsWith(CODEMODE_OPTIONS_PREFIX)) {
			throw new CodemodeSourceError(
				`"${CODEMODE_OPTIONS_PREFIX}" is only allowed on the first line, found on line ${i + 1}`,
			);
		}
	}
	const first = lines[0]!.replace(/\r$/, "").trimStart();
	if (!first.startsWith(CODEMODE_OPTIONS_PREFIX)) return { code: input, options: {} };
	const options = parseOptions(first.slice(CODEMODE_OPTIONS_PREFIX.length).trim());
	const rest = lines.slice(1).join("\n");
	if (rest.trim() === "") throw new CodemodeSourceError("No script code follows the options line");
	return { code: `\n${rest}`, options };
}

function parseOptions(text: string): CodemodeSourceOptions {
	if (text === "") throw new CodemodeSourceError(`"${CODEMODE_OPTIONS_PREFIX}" needs a JSON object`);
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch (error) {
		throw new CodemodeSourceError(`Invalid JSON after "${CODEMODE_OPTIONS_PREFIX}": ${(error as Error).message}`);
	}
	if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
		throw new CodemodeSourceError(`"${CODEMODE_OPTIONS_PREFIX}" must be followed by a JSON object`);
	}
	const options: CodemodeSourceOptions = {};
	for (const [key, value] of Object.entries(raw)) {
		if (key === "max_output_tokens") {
			if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
				throw new CodemodeSourceError("max_output_tokens must be a non-negative integer");
			}
			options.maxOutputTokens = value;
		} else if (key === "timeout_ms") {
			if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
				throw new CodemodeSourceError(`timeout_ms must be an integer from 1 to ${MAX_TIMEOUT_MS}`);
			}
			options.timeoutMs = value;
		} else {
			throw new CodemodeSourceError(`Unknown option "${key}"; allowed: max_output_tokens, timeout_ms`);
		}
	}
	return options;
}
