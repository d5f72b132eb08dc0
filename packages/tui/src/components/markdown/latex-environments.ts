import { visibleWidth } from "../../text/width.js";
import { latexToUnicode } from "./latex.js";

/**
 * `\begin{…}…\end{…}` blocks of LaTeX math laid out as rows of text (docs/tui.md, "Math"): matrices
 * with their brackets and `cases` with a brace. Alignment environments are no blocks: their rows are
 * the expression's lines.
 */

/** Bracket pieces of a matrix: left and right for the top row, the rows between and the bottom row. */
const BRACKETS: Record<string, { top: [string, string]; middle: [string, string]; bottom: [string, string] }> = {
	pmatrix: { top: ["⎛", "⎞"], middle: ["⎜", "⎟"], bottom: ["⎝", "⎠"] },
	bmatrix: { top: ["⎡", "⎤"], middle: ["⎢", "⎥"], bottom: ["⎣", "⎦"] },
	Bmatrix: { top: ["⎧", "⎫"], middle: ["⎨", "⎬"], bottom: ["⎩", "⎭"] },
	vmatrix: { top: ["│", "│"], middle: ["│", "│"], bottom: ["│", "│"] },
	Vmatrix: { top: ["║", "║"], middle: ["║", "║"], bottom: ["║", "║"] },
};
const PLAIN_MATRICES = new Set(["matrix", "smallmatrix", "array"]);
const CASES = new Set(["cases", "cases*"]);
const GROUPS = "(?:align|aligned|alignat|equation|gather|gathered|split|multline)\\*?";
/**
 * The `\begin`/`\end` of alignment environments, with the spaces inside them: these only group lines,
 * their rows are the expression's lines.
 */
export const LINE_GROUPS = new RegExp(`\\\\begin\\{${GROUPS}\\}\\s*|\\s*\\\\end\\{${GROUPS}\\}`, "g");

export const isKnownEnvironment = (name: string) =>
	Object.hasOwn(BRACKETS, name) || PLAIN_MATRICES.has(name) || CASES.has(name);

export interface EnvironmentBlock {
	name: string;
	body: string;
	/** Just after `\end{name}`. */
	end: number;
}

/** The block whose `\begin{name}` is at `i`, up to its matching `\end{name}`; undefined when it is not closed. */
export function readEnvironment(src: string, i: number): EnvironmentBlock | undefined {
	const begin = /^\\begin\{([^}]*)\}/.exec(src.slice(i));
	if (!begin) return undefined;
	const name = begin[1]!;
	const start = i + begin[0].length;
	let depth = 1;
	for (let j = start; j < src.length; j++) {
		if (src.startsWith(`\\begin{${name}}`, j)) depth++;
		else if (src.startsWith(`\\end{${name}}`, j) && --depth === 0) {
			return { name, body: src.slice(start, j), end: j + `\\end{${name}}`.length };
		} else if (src[j] === "\\") j++;
	}
	return undefined;
}

/**
 * Splits `text` at `separator` where it stands outside braces and environments (a `\\` is not two `\`s):
 * the rows of a body, its cells, or the lines of a whole expression.
 */
export function splitOutside(text: string, separator: "\\\\" | "&"): string[] {
	const parts: string[] = [];
	let depth = 0;
	let start = 0;
	for (let i = 0; i < text.length; i++) {
		const block = text.startsWith("\\begin{", i) ? readEnvironment(text, i) : undefined;
		if (block) i = block.end - 1;
		else if (text[i] === "{") depth++;
		else if (text[i] === "}") depth--;
		else if (depth === 0 && text.startsWith(separator, i)) {
			parts.push(text.slice(start, i));
			start = i + separator.length;
			i += separator.length - 1;
		} else if (text[i] === "\\") i++;
	}
	parts.push(text.slice(start));
	return parts;
}

/** The rows of a body, each a list of cells; a last empty row (a trailing `\\`) is dropped. */
function rowsOf(body: string): string[][] {
	const rows = splitOutside(body, "\\\\").map((row) => splitOutside(row, "&"));
	if (rows.length > 0 && rows.at(-1)!.every((cell) => cell.trim() === "")) rows.pop();
	return rows;
}

const cellText = (cell: string) => latexToUnicode(cell).replace(/\s+/g, " ").trim();
/**
 * Padding that must survive the trimming of line ends: a matrix's columns stay as wide as their widest
 * cell. The layout turns it back into spaces last.
 */
export const KEPT_SPACE = "\u{f0002}";
const padded = (text: string, width: number, fill = " ") => text + fill.repeat(Math.max(0, width - visibleWidth(text)));

function matrixLines(name: string, rows: string[][]): string[] {
	const cells = rows.map((row) => row.map(cellText));
	const columns = Math.max(0, ...cells.map((row) => row.length));
	const widths = Array.from({ length: columns }, (_, column) =>
		Math.max(0, ...cells.map((row) => visibleWidth(row[column] ?? ""))),
	);
	const lines = cells.map((row) =>
		widths
			.map((width, column) => padded(row[column] ?? "", width, KEPT_SPACE))
			.join(" │ ")
			.trim(),
	);
	const brackets = BRACKETS[name];
	if (!brackets) return lines;
	return lines.map((line, row) => {
		const [left, right] = row === 0 ? brackets.top : row === lines.length - 1 ? brackets.bottom : brackets.middle;
		return `${left} ${line} ${right}`;
	});
}

/** A condition is written after `if`, unless it is text of its own (`otherwise`, `for x > 0`). */
function condition(cell: string | undefined): string {
	const source = cell?.trim() ?? "";
	if (source === "") return "";
	return source.startsWith("\\text") ? cellText(source) : `if ${cellText(source)}`;
}

function casesLines(rows: string[][]): string[] {
	const values = rows.map((row) => cellText(row[0] ?? ""));
	const conditions = rows.map((row) => condition(row[1]));
	const width = Math.max(0, ...values.map(visibleWidth));
	const lines = values.map((value, row) => (conditions[row] ? `${padded(value, width)} ${conditions[row]}` : value));
	// The brace needs a middle row to point from: an even number of rows gets an empty one.
	if (lines.length % 2 === 0) lines.splice(lines.length / 2, 0, "");
	return lines.map((line, row) => {
		const brace = lines.length === 1 || row === 0 ? "⎧" : row === lines.length - 1 ? "⎩" : "⎨";
		return line === "" ? brace : `${brace} ${line}`;
	});
}

/** The rows of an environment as text lines, and the row the surrounding text continues on. */
export function layoutEnvironment(block: EnvironmentBlock): { lines: string[]; baseline: number } {
	// An array's column specification (`{c|c}`) is not content.
	const body = block.name === "array" ? block.body.replace(/^\s*\{[^}]*\}/, "") : block.body;
	const rows = rowsOf(body);
	let lines: string[];
	if (CASES.has(block.name)) lines = casesLines(rows);
	else lines = matrixLines(block.name, rows);
	if (lines.length === 0) lines = [""];
	// Text beside a matrix continues its first row; beside `cases`, the brace's middle.
	return { lines, baseline: CASES.has(block.name) ? Math.floor((lines.length - 1) / 2) : 0 };
}
