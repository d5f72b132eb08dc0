import { visibleWidth } from "../../text/width.js";
import { FUNCTIONS, latexToUnicode, readArgument, SYMBOLS } from "./latex.js";

/** Commands with arguments or meaning beyond a symbol, which `latexToUnicode` understands. */
const STRUCTURAL = new Set([
	"frac",
	"dfrac",
	"tfrac",
	"sqrt",
	"mathbb",
	"text",
	"mathrm",
	"mathbf",
	"mathit",
	"mathsf",
	"mathtt",
	"operatorname",
	"textbf",
	"textit",
	"boldsymbol",
]);

/** Operators whose limits display math sets above and below them. */
const LIMIT_OPERATORS: Record<string, string> = {
	sum: "∑",
	prod: "∏",
	int: "∫",
	oint: "∮",
	lim: "lim",
};

/** Whether every command is known and every brace is closed, so the conversion means what was written. */
function isSupported(src: string): boolean {
	let depth = 0;
	for (let i = 0; i < src.length; i++) {
		const ch = src[i]!;
		if (ch === "{") depth++;
		else if (ch === "}" && --depth < 0) return false;
		else if (ch === "\\") {
			const name = /^\\([A-Za-z]+|.)/.exec(src.slice(i))?.[1];
			if (name === undefined) return false;
			const known = name === "\\" || name in SYMBOLS || STRUCTURAL.has(name) || FUNCTIONS.has(name);
			if (!known) return false;
			i += name.length;
		}
	}
	return depth === 0;
}

/** One line of inline math: runs of spaces collapse, as TeX ignores most of them. */
const inline = (src: string) => latexToUnicode(src).replace(/ {2,}/g, " ").trim();

/** Lines of text with the row the surrounding text sits on. */
interface Box {
	lines: string[];
	baseline: number;
}

const boxWidth = (box: Box) => Math.max(0, ...box.lines.map(visibleWidth));

function centered(text: string, width: number): string {
	const left = Math.floor((width - visibleWidth(text)) / 2);
	return " ".repeat(left) + text + " ".repeat(width - visibleWidth(text) - left);
}

/** A stack of centred rows; `baseline` is the row the surrounding text continues on. */
function stack(rows: string[], baseline: number): Box {
	const width = Math.max(...rows.map(visibleWidth));
	return { lines: rows.map((row) => centered(row, width)), baseline };
}

/** Boxes side by side, aligned on their baselines. */
function beside(boxes: Box[]): Box {
	const baseline = Math.max(0, ...boxes.map((box) => box.baseline));
	const below = Math.max(0, ...boxes.map((box) => box.lines.length - box.baseline - 1));
	const lines = Array.from({ length: baseline + below + 1 }, () => "");
	for (const box of boxes) {
		const width = boxWidth(box);
		lines.forEach((_, row) => {
			const line = box.lines[row - baseline + box.baseline] ?? "";
			lines[row] += line + " ".repeat(width - visibleWidth(line));
		});
	}
	return { lines, baseline };
}

/** The limits after an operator: `_x`, `^y`, in either order. */
function readLimits(src: string, at: number): { sub?: string; sup?: string; end: number } {
	const limits: { sub?: string; sup?: string; end: number } = { end: at };
	for (;;) {
		let i = limits.end;
		while (src[i] === " ") i++;
		const mark = src[i];
		if ((mark !== "_" && mark !== "^") || limits[mark === "_" ? "sub" : "sup"] !== undefined) return limits;
		const argument = readArgument(src, i + 1);
		limits[mark === "_" ? "sub" : "sup"] = inline(argument.text).replace(/ /g, "");
		limits.end = argument.end;
	}
}

/** Display math, line by line (`\\\\` breaks): fractions stacked, operator limits above and below. */
function displayLayout(src: string): string {
	return src.split("\\\\").map(displayLine).join("\n");
}

/** One display line: fractions stacked over a rule and operator limits above and below, the rest inline. */
function displayLine(src: string): string {
	const boxes: Box[] = [];
	let pending = "";
	const flush = () => {
		let text = latexToUnicode(pending).replace(/ {2,}/g, " ");
		if (boxes.length === 0) text = text.trimStart();
		if (i >= src.length) text = text.trimEnd();
		if (text) boxes.push({ lines: [text], baseline: 0 });
		pending = "";
	};
	let i = 0;
	while (i < src.length) {
		const command = src[i] === "\\" ? /^\\([A-Za-z]+)/.exec(src.slice(i)) : null;
		const name = command?.[1];
		if (name === "frac" || name === "dfrac" || name === "tfrac") {
			flush();
			const numerator = readArgument(src, i + command![0].length);
			const denominator = readArgument(src, numerator.end);
			const top = inline(numerator.text);
			const bottom = inline(denominator.text);
			const rule = "─".repeat(Math.max(visibleWidth(top), visibleWidth(bottom)));
			boxes.push(stack([top, rule, bottom], 1));
			i = denominator.end;
		} else if (name !== undefined && LIMIT_OPERATORS[name] !== undefined) {
			flush();
			const limits = readLimits(src, i + command![0].length);
			const rows = [...(limits.sup !== undefined ? [limits.sup] : []), LIMIT_OPERATORS[name]!];
			if (limits.sub !== undefined) rows.push(limits.sub);
			boxes.push(stack(rows, limits.sup !== undefined ? 1 : 0));
			i = limits.end;
		} else {
			const step = command ? command[0].length : 1;
			pending += src.slice(i, i + step);
			i += step;
		}
	}
	flush();
	return beside(boxes)
		.lines.map((line) => line.trimEnd())
		.filter((line, row, lines) => line !== "" || (row > 0 && row < lines.length - 1))
		.join("\n");
}

export interface RenderLatexOptions {
	/** Display math (`$$…$$`): fractions stacked, limits of sums, products, integrals and `\lim` set around them. */
	display?: boolean;
}

/**
 * A LaTeX math expression as terminal text (Unicode symbols, super- and subscripts, fractions), or
 * undefined when it uses a command this renderer does not know or leaves a brace unclosed.
 */
export function renderLatex(source: string, options: RenderLatexOptions = {}): string | undefined {
	if (!isSupported(source)) return undefined;
	if (options.display) return displayLayout(source);
	return latexToUnicode(source)
		.split("\n")
		.map((line) => line.replace(/ {2,}/g, " ").trim())
		.join("\n");
}
