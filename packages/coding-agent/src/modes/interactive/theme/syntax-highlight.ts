import { type LanguageSyntax, languageSyntax } from "./languages.js";

/** What the highlighter needs from a theme: a colour per token name (the `syntax*` tokens of docs/themes.md#file-format). */
export interface SyntaxStyler {
	fg(token: string, text: string): string;
}

type TokenKind =
	| "comment"
	| "keyword"
	| "function"
	| "variable"
	| "string"
	| "number"
	| "type"
	| "operator"
	| "punctuation";

const TOKEN_COLOR: Readonly<Record<TokenKind, string>> = {
	comment: "syntaxComment",
	keyword: "syntaxKeyword",
	function: "syntaxFunction",
	variable: "syntaxVariable",
	string: "syntaxString",
	number: "syntaxNumber",
	type: "syntaxType",
	operator: "syntaxOperator",
	punctuation: "syntaxPunctuation",
};

interface Token {
	text: string;
	kind?: TokenKind;
}

// Sticky expressions, so scanning never copies the rest of the source.
const IDENTIFIER = /[\p{L}_$][\p{L}\p{N}_$]*/uy;
const NUMBER =
	/(?:0[xX][\da-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*(?:\.\d[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?)[\p{L}%]*/uy;
const DOLLAR_VARIABLE = /\$(?:\{[^}\n]*\}|[\p{L}_][\p{L}\p{N}_]*|[\d#?@*$!-])/uy;
const OPERATOR = /[+\-*/%=<>!&|^~?:@]+/y;
const PUNCTUATION = /[()[\]{},;.]/y;
const CALL_AHEAD = /\s*\(/y;

function matchAt(pattern: RegExp, code: string, at: number): string | undefined {
	pattern.lastIndex = at;
	return pattern.exec(code)?.[0];
}

/** The end of a string opening at `start` (after its closing quote, or where it stops unclosed). */
function stringEnd(code: string, start: number, syntax: LanguageSyntax): number {
	const quote = code[start]!;
	const triple = quote.repeat(3);
	if (syntax.tripleQuotes && code.startsWith(triple, start)) {
		const close = code.indexOf(triple, start + 3);
		return close < 0 ? code.length : close + 3;
	}
	const multiline = syntax.multilineQuotes.includes(quote);
	let at = start + 1;
	while (at < code.length) {
		const char = code[at]!;
		if (char === "\\") at += 2;
		else if (char === quote) return at + 1;
		else if (char === "\n" && !multiline) return at;
		else at++;
	}
	return code.length;
}

function commentEnd(code: string, at: number, syntax: LanguageSyntax): number | undefined {
	const block = syntax.blockComment;
	if (block && code.startsWith(block[0], at)) {
		const close = code.indexOf(block[1], at + block[0].length);
		return close < 0 ? code.length : close + block[1].length;
	}
	for (const marker of syntax.lineComments) {
		if (!code.startsWith(marker, at)) continue;
		// `#` starts a comment only at a word boundary (`$#`, `a#b` are not comments in shells).
		if (marker === "#" && at > 0 && !/\s/.test(code[at - 1]!)) continue;
		const newline = code.indexOf("\n", at);
		return newline < 0 ? code.length : newline;
	}
	return undefined;
}

function wordKind(word: string, code: string, end: number, syntax: LanguageSyntax): TokenKind | undefined {
	const key = syntax.caseInsensitive ? word.toLowerCase() : word;
	if (syntax.keywords.has(key)) return "keyword";
	if (syntax.types.has(key)) return "type";
	if (matchAt(CALL_AHEAD, code, end) !== undefined) return "function";
	if (syntax.capitalTypes && /^\p{Lu}/u.test(word)) return "type";
	return undefined;
}

const SYMBOLS: readonly (readonly [RegExp, TokenKind])[] = [
	[NUMBER, "number"],
	[OPERATOR, "operator"],
	[PUNCTUATION, "punctuation"],
];

/** The token starting at `at`; undefined for a character that is not part of one. */
function scanToken(code: string, at: number, syntax: LanguageSyntax): { end: number; kind?: TokenKind } | undefined {
	const comment = commentEnd(code, at, syntax);
	if (comment !== undefined) return { end: comment, kind: "comment" };
	const char = code[at]!;
	if (syntax.quotes.includes(char)) return { end: stringEnd(code, at, syntax), kind: "string" };
	const variable = syntax.dollarVariables && char === "$" ? matchAt(DOLLAR_VARIABLE, code, at) : undefined;
	if (variable) return { end: at + variable.length, kind: "variable" };
	const word = matchAt(IDENTIFIER, code, at);
	if (word) {
		const kind = wordKind(word, code, at + word.length, syntax);
		return kind ? { end: at + word.length, kind } : { end: at + word.length };
	}
	for (const [pattern, kind] of SYMBOLS) {
		const symbol = matchAt(pattern, code, at);
		if (symbol) return { end: at + symbol.length, kind };
	}
	return undefined;
}

function* tokenize(code: string, syntax: LanguageSyntax, from: number): Generator<Token & { at: number }> {
	let at = from;
	let plainStart = at;
	while (at < code.length) {
		const token = scanToken(code, at, syntax);
		if (!token) {
			at++;
			continue;
		}
		if (at > plainStart) yield { text: code.slice(plainStart, at), at: plainStart };
		const text = code.slice(at, token.end);
		yield token.kind ? { text, kind: token.kind, at } : { text, at };
		at = token.end;
		plainStart = at;
	}
	if (at > plainStart) yield { text: code.slice(plainStart, at), at: plainStart };
}

/** A highlighted source, with what resuming after more text is appended needs. */
export interface HighlightedCode {
	source: string;
	lang: string | undefined;
	lines: string[];
	/** Offset of each line's start in `source`. */
	lineStarts: number[];
	/**
	 * The last line whose start no token crosses and whose tokens before it cannot change when text
	 * is appended: scanning them never looked past a non-blank character that follows.
	 */
	resumeLine: number;
}

function plainLines(theme: SyntaxStyler, source: string, lang: string | undefined): HighlightedCode {
	const lines = source.split("\n");
	const lineStarts: number[] = [];
	let offset = 0;
	for (const line of lines) {
		lineStarts.push(offset);
		offset += line.length + 1;
	}
	const styled = lines.map((line) => (line ? theme.fg("mdCodeBlock", line) : line));
	// Plain lines never depend on later text: all but the last (still growing) line are final.
	return { source, lang, lines: styled, lineStarts, resumeLine: Math.max(0, lines.length - 1) };
}

/** Highlights `source` from line `startLine` on, keeping `previous`'s lines before it. */
function highlightFrom(
	theme: SyntaxStyler,
	source: string,
	lang: string | undefined,
	syntax: LanguageSyntax,
	previous: HighlightedCode | undefined,
	startLine: number,
): HighlightedCode {
	const lines = previous ? previous.lines.slice(0, startLine) : [];
	const lineStarts = previous ? previous.lineStarts.slice(0, startLine) : [];
	// Line starts that a token crosses, from `startLine` on.
	const crossed = new Set<number>();
	lines.push("");
	lineStarts.push(previous ? previous.lineStarts[startLine]! : 0);
	for (const token of tokenize(source, syntax, lineStarts[lineStarts.length - 1]!)) {
		let offset = token.at;
		token.text.split("\n").forEach((piece, index) => {
			if (index > 0) {
				lines.push("");
				lineStarts.push(offset);
				if (token.kind) crossed.add(lines.length - 1);
			}
			if (piece) lines[lines.length - 1] += token.kind ? theme.fg(TOKEN_COLOR[token.kind], piece) : piece;
			offset += piece.length + 1;
		});
	}
	// Only a line followed by a non-blank character can be resumed from (see `resumeLine`).
	let lastText = source.length - 1;
	while (lastText >= 0 && /\s/.test(source[lastText]!)) lastText--;
	let resumeLine = lines.length - 1;
	while (resumeLine > startLine && (crossed.has(resumeLine) || lineStarts[resumeLine]! > lastText)) resumeLine--;
	return { source, lang, lines, lineStarts, resumeLine };
}

/**
 * Highlights `code` as `lang`, reusing `previous` when `code` extends its source (a streaming code
 * block): only the lines from the last safe resumption point on are scanned again.
 */
export function highlightIncrementally(
	theme: SyntaxStyler,
	code: string,
	lang: string | undefined,
	previous?: HighlightedCode,
): HighlightedCode {
	const source = code.replace(/\r\n?/g, "\n");
	const syntax = lang ? languageSyntax(lang) : undefined;
	if (!syntax) return plainLines(theme, source, lang);
	const resumable = previous !== undefined && previous.lang === lang && source.startsWith(previous.source);
	if (!resumable) return highlightFrom(theme, source, lang, syntax, undefined, 0);
	if (previous.source === source) return previous;
	return highlightFrom(theme, source, lang, syntax, previous, previous.resumeLine);
}

/**
 * Highlights `code` as `lang` (an id or alias such as `ts`, `python`, `sh`) with the theme's
 * `syntax*` colours: one styled string per source line, each closing its own styles so lines can be
 * laid out independently. Unknown or missing languages get the plain code-block colour.
 */
export function highlightLines(theme: SyntaxStyler, code: string, lang?: string): string[] {
	return highlightIncrementally(theme, code, lang).lines;
}

/**
 * A highlighter for one growing document (a Markdown component's code blocks): each call that
 * extends the previous call's code (same language) only highlights the new part.
 */
export function streamingHighlighter(theme: SyntaxStyler): (code: string, lang?: string) => string[] {
	let last: HighlightedCode | undefined;
	return (code, lang) => {
		last = highlightIncrementally(theme, code, lang, last);
		return last.lines;
	};
}

/** A piece of highlighted source: its text and, for a recognised token, the theme colour it takes. */
export interface HighlightedPiece {
	text: string;
	/** A `syntax*` theme token (`syntaxKeyword` ...); absent for plain text. */
	color?: string;
}

/**
 * Splits `code` in `lang` (an id or alias such as `ts`, `python`, `sh`) into highlighted pieces, one
 * list per source line; undefined for an unknown or missing language. The HTML export viewer colours
 * code with it as the terminal does (docs/export.md).
 */
export function highlightPieces(code: string, lang?: string): HighlightedPiece[][] | undefined {
	const syntax = lang ? languageSyntax(lang) : undefined;
	if (!syntax) return undefined;
	const lines: HighlightedPiece[][] = [[]];
	for (const token of tokenize(code.replace(/\r\n?/g, "\n"), syntax, 0)) {
		token.text.split("\n").forEach((piece, index) => {
			if (index > 0) lines.push([]);
			if (piece)
				lines[lines.length - 1]!.push(
					token.kind ? { text: piece, color: TOKEN_COLOR[token.kind] } : { text: piece },
				);
		});
	}
	return lines;
}
