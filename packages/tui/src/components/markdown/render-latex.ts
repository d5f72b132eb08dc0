import { visibleWidth } from "../../text/width.js";
import {
	ARGUMENT_COUNTS,
	FUNCTIONS,
	LIMIT_FUNCTIONS,
	LIMIT_SYMBOLS,
	latexToUnicode,
	readArgument,
	readOperatorLimits,
	scriptValue,
	unicodeScript,
} from "./latex.js";
import {
	isKnownEnvironment,
	KEPT_SPACE,
	LINE_GROUPS,
	layoutEnvironment,
	readEnvironment,
	splitOutside,
} from "./latex-environments.js";
import { SYMBOLS } from "./latex-symbols.js";

/** Whether the command at `i` (just after its name) is followed by `count` arguments. */
function hasArguments(src: string, i: number, count: number): boolean {
	for (let n = 0; n < count; n++) {
		while (src[i] === " ") i++;
		if (i >= src.length || src[i] === "}") return false;
		i = readArgument(src, i).end;
	}
	return true;
}

/** Whether the limits after an operator at `i` set the same side twice (`\sum_a_b`), which has no meaning. */
function hasDoubleLimit(src: string, i: number): boolean {
	const seen = new Set<string>();
	for (let j = /^[ \t]*(?:\\(?:no)?limits(?![A-Za-z]))?[ \t]*/.exec(src.slice(i))![0].length + i; ; ) {
		if (src[j] !== "^" && src[j] !== "_") return false;
		if (seen.has(src[j]!)) return true;
		seen.add(src[j]!);
		j = readArgument(src, j + 1).end;
		while (src[j] === " " || src[j] === "\t") j++;
	}
}

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
			if (name === "begin") {
				// An environment stands at the top level, is closed, known, and holds supported math.
				const block = depth === 0 ? readEnvironment(src, i) : undefined;
				if (!block || !isKnownEnvironment(block.name) || !isSupported(block.body)) return false;
				i = block.end - 1;
				continue;
			}
			if (name === "end") return false;
			const takes = Object.hasOwn(ARGUMENT_COUNTS, name) ? ARGUMENT_COUNTS[name] : undefined;
			const named = FUNCTIONS.has(name) || LIMIT_FUNCTIONS.has(name) || LIMIT_SYMBOLS.has(name);
			const known = name === "\\" || Object.hasOwn(SYMBOLS, name) || takes !== undefined || named;
			if (!known) return false;
			if (takes !== undefined && !hasArguments(src, i + 1 + name.length, takes)) return false;
			const after = i + 1 + name.length;
			if (named && !FUNCTIONS.has(name) && hasDoubleLimit(src, after)) return false;
			if (
				name === "operatorname" &&
				hasDoubleLimit(src, readArgument(src, src[after] === "*" ? after + 1 : after).end)
			)
				return false;
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
	/** A column of space kept before (after) the box when something precedes (follows) it: stacked parts stand apart. */
	padLeft?: boolean;
	padRight?: boolean;
	/** A block (matrix, `cases`) keeps the spaces written next to it; other parts replace them by padding. */
	keepsSpaces?: boolean;
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
	boxes.forEach((box, index) => {
		const gap = index === 0 ? 0 : Number(boxes[index - 1]!.padRight === true) + Number(box.padLeft === true);
		const width = gap + boxWidth(box);
		lines.forEach((_, row) => {
			const line = box.lines[row - baseline + box.baseline] ?? "";
			lines[row] += " ".repeat(gap) + line + " ".repeat(width - gap - visibleWidth(line));
		});
	});
	return { lines, baseline };
}

/** A function name (with its scripts) ending a stretch of source. */
const FUNCTION_AT_END = /\\([A-Za-z]+)(?:\s*[_^](?:\{[^{}]*\}|\\[A-Za-z]+|.))*\s*$/;

/** A run of text, as opposed to a laid-out part (fraction, limits, raised scripts). */
const isText = (box: Box) => box.lines.length === 1 && box.baseline === 0 && !box.padLeft && !box.padRight;

/**
 * The scripts at `i` (one of each side at most) and where they end, with the box that raises the
 * superscript above the line and lowers the subscript below it when one has no Unicode form (no box
 * when they are written inline).
 */
function raisedScripts(src: string, i: number): { box?: Box; end: number } {
	const scripts: { upper?: string; lower?: string } = {};
	let end = i;
	for (;;) {
		const side = src[end] === "^" ? "upper" : src[end] === "_" ? "lower" : undefined;
		if (side === undefined || scripts[side] !== undefined) break;
		const argument = readArgument(src, end + 1);
		scripts[side] = latexToUnicode(argument.text);
		end = argument.end;
	}
	const { upper, lower } = scripts;
	const fits = (value: string | undefined, kind: "sup" | "sub") => value === undefined || unicodeScript(value, kind);
	if (fits(upper, "sup") && fits(lower, "sub")) return { end };
	// Only short or capitalised scripts are raised; a longer one reads better inline, as `^(…)`.
	const raisable = (value = "") => !value.includes("/") && ([...value].length <= 1 || /[A-Z*∗]/.test(value));
	if (!raisable(upper) || !raisable(lower)) return { end };
	const rows = [...(upper !== undefined ? [scriptValue(upper)] : []), ""];
	if (lower !== undefined) rows.push(scriptValue(lower));
	const width = Math.max(...rows.map(visibleWidth));
	const lines = rows.map((row) => row + " ".repeat(width - visibleWidth(row)));
	return { box: { lines, baseline: upper !== undefined ? 1 : 0 }, end };
}

/**
 * Where the unit at `i` that display math writes inline ends: a command with its arguments stays whole
 * (what is nested in them is written inline), anything else is one character or name.
 */
function inlineUnitEnd(src: string, i: number, name: string | undefined): number {
	if (name === undefined) return src[i] === "\\" ? i + 2 : i + 1;
	let end = i + 1 + name.length;
	if (name === "sqrt") end += /^\s*\[[^\]]*\]/.exec(src.slice(end))?.[0].length ?? 0;
	if (name === "operatorname" && src[end] === "*") end++;
	const count = Object.hasOwn(ARGUMENT_COUNTS, name) ? ARGUMENT_COUNTS[name]! : 0;
	for (let n = 0; n < count; n++) end = readArgument(src, end).end;
	return end;
}

/** The operator a command at `i` (just after its name) names, if its limits may be stacked, and where its limits start. */
function limitOperator(src: string, i: number, name: string): { text: string; end: number } | undefined {
	if (LIMIT_SYMBOLS.has(name)) return { text: SYMBOLS[name]!, end: i };
	if (LIMIT_FUNCTIONS.has(name)) return { text: name, end: i };
	if (name !== "operatorname" || src[i] !== "*") return undefined;
	const argument = readArgument(src, i + 1);
	return { text: latexToUnicode(argument.text).trim(), end: argument.end };
}

/**
 * Math laid out line by line (`\\\\` breaks): environments as blocks of rows; in display math also
 * fractions stacked over a rule, operator limits above and below, and raised scripts.
 */
function layout(src: string, display: boolean): string {
	return splitOutside(src, "\\\\")
		.map((line) => layoutLine(line, display))
		.join("\n")
		.replaceAll(KEPT_SPACE, " ");
}

function layoutLine(src: string, display: boolean): string {
	const boxes: Box[] = [];
	let pending = "";
	/** In display math, text never touches a laid-out part: the part's padding sets the gap. */
	const flush = () => {
		// A function name after a laid-out part is set apart from it, as after a word.
		const named = boxes.length > 0 && FUNCTIONS.has(/^\s*\\([A-Za-z]+)/.exec(pending)?.[1] ?? "");
		let text = (named ? " " : "") + latexToUnicode(pending).replace(/ {2,}/g, " ");
		const last = boxes.at(-1);
		if (!last || (display && !isText(last) && !last.keepsSpaces)) text = text.trimStart();
		if (i >= src.length) text = text.trimEnd();
		if (text) boxes.push({ lines: [text], baseline: 0 });
		pending = "";
	};
	const place = (box: Box) => {
		flush();
		const last = boxes.at(-1);
		// A space alone between a block and another part stays (the part's padding comes beside it).
		const spaceAfterBlock = boxes.at(-2)?.keepsSpaces && last?.lines[0]?.trim() === "";
		if (display && last && isText(last) && !box.keepsSpaces && !spaceAfterBlock) {
			last.lines[0] = last.lines[0]!.trimEnd();
			if (last.lines[0] === "") boxes.pop();
		}
		boxes.push(box);
	};
	let i = 0;
	while (i < src.length) {
		const command = src[i] === "\\" ? /^\\([A-Za-z]+)/.exec(src.slice(i)) : null;
		const name = command?.[1];
		const operator = name === undefined ? undefined : limitOperator(src, i + command![0].length, name);
		// An operator without limits (or with `\nolimits`) is written inline, like any other text.
		const limits = operator === undefined ? undefined : readOperatorLimits(src, operator.end);
		// `\tfrac` is a text-style fraction: it stays on one line.
		if (name === "begin") {
			const block = readEnvironment(src, i)!;
			const box: Box = { ...layoutEnvironment(block), keepsSpaces: true };
			// A function name before the block is set apart from it, as from any operand.
			const multiline = box.lines.length > 1;
			if (multiline && FUNCTION_AT_END.test(pending) && FUNCTIONS.has(FUNCTION_AT_END.exec(pending)![1]!))
				pending += " ";
			// A full stop after the block ends its last row.
			const stop = src[block.end] === ".";
			if (stop) box.lines[box.lines.length - 1] += ".";
			if (multiline) place(box);
			else {
				// One row is text like any other.
				flush();
				boxes.push({ lines: box.lines, baseline: 0 });
			}
			i = block.end + (stop ? 1 : 0);
		} else if (display && (name === "frac" || name === "dfrac")) {
			const numerator = readArgument(src, i + command![0].length);
			const denominator = readArgument(src, numerator.end);
			const top = inline(numerator.text);
			const bottom = inline(denominator.text);
			const rule = "─".repeat(Math.max(visibleWidth(top), visibleWidth(bottom)));
			place({ ...stack([top, rule, bottom], 1), padLeft: true, padRight: true });
			i = denominator.end;
		} else if (display && limits !== undefined && !limits.inline && (limits.lower ?? limits.upper) !== undefined) {
			const rows = [...(limits.upper !== undefined ? [limits.upper] : []), operator!.text];
			if (limits.lower !== undefined) rows.push(limits.lower);
			place({ ...stack(rows, limits.upper !== undefined ? 1 : 0), padRight: true });
			i = limits.end;
		} else if (display && (src[i] === "^" || src[i] === "_")) {
			const scripts = raisedScripts(src, i);
			if (scripts.box) place(scripts.box);
			else pending += src.slice(i, scripts.end);
			i = scripts.end;
		} else {
			const end = inlineUnitEnd(src, i, name);
			pending += src.slice(i, end);
			i = end;
		}
	}
	flush();
	return beside(boxes)
		.lines.map((line) => line.trimEnd())
		.join("\n")
		.trimEnd();
}

/** Options of `renderLatex`. */
export interface RenderLatexOptions {
	/** Display math (`$$…$$`): fractions stacked, limits of sums, products, integrals and `\lim` set around them. */
	display?: boolean;
}

/**
 * A LaTeX math expression as terminal text (Unicode symbols, super- and subscripts, fractions), or
 * undefined when it uses a command this renderer does not know or leaves a brace unclosed.
 */
export function renderLatex(latex: string, options: RenderLatexOptions = {}): string | undefined {
	const source = latex.replace(LINE_GROUPS, "");
	if (!isSupported(source)) return undefined;
	if (options.display || source.includes("\\begin")) return layout(source, options.display === true);
	return latexToUnicode(source)
		.split("\n")
		.map((line) => line.replace(/ {2,}/g, " ").trim())
		.join("\n");
}
