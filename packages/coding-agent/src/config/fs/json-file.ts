import { errorMessage } from "../../core/errors.js";
import { stripBom } from "./json-text.js";

/**
 * A configuration file that is not valid JSON: `<path>:<line>:<column>: <what is wrong>`, the form
 * editors and terminals turn into a jump to the spot (docs/configuration.md).
 */
export class JsonFileError extends SyntaxError {
	constructor(
		readonly path: string,
		readonly line: number,
		readonly column: number,
		readonly reason: string,
	) {
		super(`${path}:${line}:${column}: ${reason}`);
		this.name = "JsonFileError";
	}
}

/** 1-based line and column of a UTF-16 offset. */
function locate(text: string, offset: number): { line: number; column: number } {
	let line = 1;
	let lineStart = 0;
	const end = Math.min(Math.max(0, offset), text.length);
	for (let i = 0; i < end; i++) {
		if (text.charCodeAt(i) === 0x0a) {
			line++;
			lineStart = i + 1;
		}
	}
	return { line, column: end - lineStart + 1 };
}

/** The offset a `JSON.parse` error points at; V8 leaves it out for an unexpected token, so scan for it. */
function errorOffset(message: string, text: string): number {
	const position = /at position (\d+)/.exec(message);
	return position ? Number(position[1]) : firstSyntaxError(text);
}

/** Offset of the first character that cannot continue valid JSON (the text is known to be invalid). */
function firstSyntaxError(text: string): number {
	let i = 0;
	const space = () => {
		while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
	};
	const literal = (word: string) => {
		for (const char of word) {
			if (text[i] !== char) throw i;
			i++;
		}
	};
	const value = (): void => {
		space();
		const char = text[i];
		if (char === "{" || char === "[") {
			const close = char === "{" ? "}" : "]";
			i++;
			space();
			if (text[i] === close) {
				i++;
				return;
			}
			for (;;) {
				if (close === "}") {
					space();
					if (text[i] !== '"') throw i;
					value();
					space();
					if (text[i] !== ":") throw i;
					i++;
				}
				value();
				space();
				if (text[i] === ",") i++;
				else if (text[i] === close) {
					i++;
					return;
				} else throw i;
			}
		}
		if (char === '"') {
			for (i++; i < text.length && text[i] !== '"'; i++) {
				if (text.charCodeAt(i) < 0x20) throw i;
				if (text[i] === "\\") i++;
			}
			if (i >= text.length) throw i;
			i++;
			return;
		}
		const word = char === "t" ? "true" : char === "f" ? "false" : char === "n" ? "null" : undefined;
		if (word) {
			literal(word);
			return;
		}
		const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
		if (!number) throw i;
		i += number[0].length;
	};
	try {
		value();
		space();
		return i;
	} catch (offset) {
		return offset as number;
	}
}

/** `JSON.parse` of a file's text (BOM removed); a syntax error becomes a `JsonFileError` naming the spot. */
export function parseJsonFile(path: string, text: string): unknown {
	const body = stripBom(text);
	try {
		return JSON.parse(body);
	} catch (error) {
		const message = errorMessage(error);
		const { line, column } = locate(body, errorOffset(message, body));
		const reason = message
			.replace(/, ".*" is not valid JSON$/s, "")
			.replace(/ at position \d+( \(line \d+ column \d+\))?$/, "")
			.replace(/ in JSON$/, "");
		throw new JsonFileError(path, line, column, reason);
	}
}
