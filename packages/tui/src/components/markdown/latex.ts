import { ACCENTS, NEGATIONS, SPACED_SYMBOLS, SYMBOLS } from "./latex-symbols.js";

/**
 * A small LaTeX-math to Unicode text converter for terminal display (docs/tui.md, "Math"). It answers
 * as pi-tui 1.6's `renderLatex` does for what both understand (checked by the differential test).
 */

/**
 * Unicode superscript and subscript forms; a script with a character missing here is written `^(…)`.
 * Capitals stay out: Unicode lacks several (C, F, Q, S, X, Y, Z), so `^T` reads more evenly than `ᵀ`.
 */
const SUPERSCRIPT: Record<string, string> = Object.fromEntries(
	[..."0123456789+-=()abcdefghijklmnoprstuvwxyz"].map((char, index) => [
		char,
		[..."⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ"][index]!,
	]),
);
const SUBSCRIPT: Record<string, string> = Object.fromEntries(
	[..."0123456789+-=()aehijklmnoprstuvx"].map((char, index) => [
		char,
		[..."₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"][index]!,
	]),
);
const words = (list: string) => new Set(list.split(" "));
/** Function names, written upright and set apart from their operand (`sin x`). */
export const FUNCTIONS = words(
	"sin cos tan cot sec csc sinh cosh tanh coth arcsin arccos arctan log ln lg exp det dim ker deg gcd arg Pr hom",
);
/** Function names whose subscript is a limit: `lim[x→0]` inline, set below the name in display math. */
export const LIMIT_FUNCTIONS = words("lim liminf limsup max min sup inf argmax argmin injlim projlim");
/** Big operators whose scripts are limits: below and above in display math, scripts inline. */
export const LIMIT_SYMBOLS = words(
	"sum prod coprod int iint iiint oint bigcap bigcup bigodot bigoplus bigotimes bigsqcup biguplus bigvee bigwedge",
);
const BLACKBOARD: Record<string, string> = { C: "ℂ", H: "ℍ", N: "ℕ", P: "ℙ", Q: "ℚ", R: "ℝ", Z: "ℤ" };
/** Wrappers around text, written as typed: the terminal has one font. */
const TEXT_WRAPPERS = words("text textbf textit textmd textnormal textrm textsc textsf textsl texttt textup mbox");
/** Wrappers around math, whose argument is converted: fonts, emphasis and braces the terminal cannot draw. */
const MATH_WRAPPERS = words(
	"emph mathcal mathbf mathfrak mathit mathrm mathnormal mathscr mathsf mathtt mathup overbrace underbrace pmb smash substack bm boldsymbol",
);

/** How many arguments each command with arguments takes (the renderer refuses a command missing one). */
export const ARGUMENT_COUNTS: Record<string, number> = Object.fromEntries([
	...["frac", "dfrac", "tfrac", "binom", "dbinom", "tbinom", "overset", "underset", "stackrel"].map((n) => [n, 2]),
	...["sqrt", "not", "boxed", "fbox", "pmod", "pod", "mathbb", "operatorname"].map((name) => [name, 1]),
	...["mod", "bmod"].map((name) => [name, 0]),
	...[...TEXT_WRAPPERS, ...MATH_WRAPPERS, ...Object.keys(ACCENTS)].map((name) => [name, 1]),
]);

/** A table's own entry (a command named `constructor` is not a symbol). */
export const own = (table: Record<string, string>, key: string): string | undefined =>
	Object.hasOwn(table, key) ? table[key] : undefined;

/** Runs of spaces as one, none at the ends: how a converted argument is used. */
const tidy = (text: string) => text.replace(/[ \t]+/g, " ").trim();

/** Reads one argument at `i`: a braced group or a single (possibly escaped) character. */
export function readArgument(src: string, i: number): { text: string; end: number } {
	while (src[i] === " ") i++;
	if (src[i] === "{") {
		let depth = 1;
		let j = i + 1;
		while (j < src.length && depth > 0) {
			if (src[j] === "{") depth++;
			else if (src[j] === "}") depth--;
			j++;
		}
		return { text: src.slice(i + 1, j - 1), end: j };
	}
	if (src[i] === "\\") {
		const m = /^\\([A-Za-z]+|.)/.exec(src.slice(i));
		if (m) return { text: m[0], end: i + m[0].length };
	}
	return { text: src[i] ?? "", end: i + 1 };
}

/** A script's text: spaces collapsed and trimmed, none around `=`, `+` and `-`. */
export const scriptValue = (value: string) => tidy(value).replace(/\s*([=+-])\s*/g, "$1");

/** A script in Unicode superscript or subscript characters, or undefined when one has no such form. */
export function unicodeScript(value: string, kind: "sup" | "sub"): string | undefined {
	const table = kind === "sup" ? SUPERSCRIPT : SUBSCRIPT;
	const chars = [...scriptValue(value)];
	return chars.every((c) => own(table, c) !== undefined) ? chars.map((c) => table[c]).join("") : undefined;
}

/**
 * A superscript or subscript: Unicode script characters when every character has one (spaces around
 * `=`, `+` and `-` dropped) unless `spelledOut`, else `^x`, `_ab` for a one-character or (subscript)
 * one-word value, else `^(…)`.
 */
export function script(value: string, kind: "sup" | "sub", spelledOut = false): string {
	const text = scriptValue(value);
	const unicode = spelledOut ? undefined : unicodeScript(text, kind);
	if (unicode !== undefined) return unicode;
	const chars = [...text];
	const marker = kind === "sup" ? "^" : "_";
	const bare = chars.length === 1 || (kind === "sub" && /^[A-Za-z]+$/.test(text));
	return bare ? `${marker}${text}` : `${marker}(${text})`;
}

/** A converted argument, and whether its source names a function (whose name is never a simple part). */
interface Part {
	text: string;
	named: boolean;
}

/** Whether a source names a function: its name stays upright, so scripts, roots and fractions bracket it. */
const namesFunction = (src: string) => [...src.matchAll(/\\([A-Za-z]+)/g)].some((m) => FUNCTIONS.has(m[1]!));

/** `a/b` with a part bracketed unless it is one word or number (the denominator: a number or one character). */
function fraction(top: Part, bottom: Part): string {
	const simpleTop = !top.named && /^[\p{L}\p{N}.]+$/u.test(top.text);
	const simpleBottom = !bottom.named && (/^[\p{N}.]+$/u.test(bottom.text) || [...bottom.text].length === 1);
	return `${simpleTop ? top.text : `(${top.text})`}/${simpleBottom ? bottom.text : `(${bottom.text})`}`;
}

/** A root sign before its argument, bracketed unless it is one word or number. */
function root(value: Part, sign: string): string {
	return !value.named && /^[\p{L}\p{N}.]+$/u.test(value.text) ? `${sign}${value.text}` : `${sign}(${value.text})`;
}

/** A root's index: `∛` and `∜` have their own signs, others are written as a superscript. */
function rootSign(index: string | undefined): string {
	if (index === undefined || index === "2") return "√";
	return own({ "3": "∛", "4": "∜" }, index) ?? `${script(index, "sup")}√`;
}

/** The limits written after an operator (`_{i=1}^{n}`, either order), spaces dropped, and `\limits`/`\nolimits`. */
export interface OperatorLimits {
	lower?: string;
	upper?: string;
	/** `\nolimits` asks for inline scripts even in display math. */
	inline: boolean;
	end: number;
}

export function readOperatorLimits(src: string, at: number): OperatorLimits {
	const modifier = /^[ \t]*\\(limits|nolimits)(?![A-Za-z])/.exec(src.slice(at));
	const limits: OperatorLimits = { inline: modifier?.[1] === "nolimits", end: at + (modifier?.[0].length ?? 0) };
	for (;;) {
		const mark = /^[ \t]*([_^])/.exec(src.slice(limits.end));
		const side = mark?.[1] === "_" ? "lower" : "upper";
		if (!mark || limits[side] !== undefined) return limits;
		const argument = readArgument(src, limits.end + mark[0].length);
		limits[side] = latexToUnicode(argument.text).replace(/\s/g, "");
		limits.end = argument.end;
	}
}

/** An operator with its limits inline: `lim[x→0]` for named limits, scripts for symbols. */
function operatorInline(operator: string, limits: OperatorLimits, lowerAsBracket: boolean): string {
	let text = operator;
	if (limits.lower !== undefined) text += lowerAsBracket ? `[${limits.lower}]` : script(limits.lower, "sub");
	if (limits.upper !== undefined) text += script(limits.upper, "sup");
	return text;
}

interface Converted {
	text: string;
	end: number;
}

/** The rendering of command `name` whose arguments start at `i`, and where it ends. */
function convertCommand(src: string, name: string, i: number): Converted {
	const raw = () => {
		const read = readArgument(src, i);
		i = read.end;
		return read.text;
	};
	const argument = () => tidy(latexToUnicode(raw()));
	/** A fraction part or root argument, and whether it names a function (then it is bracketed). */
	const part = () => {
		const source = raw();
		return { text: tidy(latexToUnicode(source)), named: namesFunction(source) };
	};
	const done = (text: string): Converted => ({ text, end: i });
	if (name === "frac" || name === "dfrac" || name === "tfrac") {
		const top = part();
		return done(fraction(top, part()));
	}
	if (name === "binom" || name === "dbinom" || name === "tbinom") {
		// The parts keep their edge spaces: `\binom{\in}{k}` is `( ∈ choose k)`.
		const top = latexToUnicode(raw());
		return done(`(${top} choose ${latexToUnicode(raw())})`);
	}
	if (name === "sqrt") {
		const index = /^\s*\[([^\]]*)\]/.exec(src.slice(i));
		if (index) i += index[0].length;
		const sign = rootSign(index ? tidy(latexToUnicode(index[1]!)) : undefined);
		return done(root(part(), sign));
	}
	if (name === "operatorname" || LIMIT_FUNCTIONS.has(name)) {
		const starred = name === "operatorname" && src[i] === "*";
		if (starred) i++;
		const operator = name === "operatorname" ? tidy(latexToUnicode(raw())) : name;
		const limits = readOperatorLimits(src, i);
		return { text: ` ${operatorInline(operator, limits, true)} `, end: limits.end };
	}
	if (LIMIT_SYMBOLS.has(name)) {
		const limits = readOperatorLimits(src, i);
		return { text: operatorInline(SYMBOLS[name]!, limits, false), end: limits.end };
	}
	const accent = own(ACCENTS, name);
	if (accent !== undefined) {
		const base = argument();
		return done([...base].length === 1 ? base + accent : `${name}(${base})`);
	}
	if (name === "not") {
		const [first = "", ...rest] = [...argument()];
		return done(` ${own(NEGATIONS, first + rest.join("")) ?? `${first}\u0338${rest.join("")}`} `);
	}
	if (name === "mathbb") return done([...argument()].map((c) => own(BLACKBOARD, c) ?? c).join(""));
	if (name === "boxed" || name === "fbox") return done(`[${argument()}]`);
	if (name === "mod" || name === "bmod") return done(" mod ");
	if (name === "pmod") return done(` (mod ${argument()})`);
	if (name === "pod") return done(` (${argument()})`);
	if (name === "overset" || name === "stackrel" || name === "underset") {
		const mark = argument();
		return done(argument() + script(mark, name === "underset" ? "sub" : "sup"));
	}
	// `\left.` is an invisible delimiter.
	if (name === "left" || name === "right" || name === "middle") return { text: "", end: src[i] === "." ? i + 1 : i };
	if (TEXT_WRAPPERS.has(name)) return done(raw());
	if (MATH_WRAPPERS.has(name)) return done(argument());
	const symbol = own(SYMBOLS, name);
	if (symbol !== undefined) return done(SPACED_SYMBOLS.has(name) ? ` ${symbol} ` : symbol);
	return done(name);
}

/** LaTeX math as one or more lines of Unicode text (a `\\` breaks the line). */
export function latexToUnicode(src: string): string {
	let out = "";
	let i = 0;
	/** After a function name (and its scripts): a word, number or root that follows is set apart (`sin x`). */
	let afterFunction = false;
	const emit = (text: string) => {
		// Spaces keep it owed: scripts may still follow (`\exp ^2`).
		if (afterFunction && text.trim() !== "") {
			if (/^[\p{L}\p{N}√]/u.test(text) && !/\s$/.test(out)) out += " ";
			afterFunction = false;
		}
		out += text;
	};
	while (i < src.length) {
		const ch = src[i]!;
		if (ch === "\\") {
			if (src[i + 1] === "\\") {
				emit("\n");
				i += 2;
				continue;
			}
			const m = /^\\([A-Za-z]+|.)/s.exec(src.slice(i));
			// A lone backslash at the end stands for itself.
			if (!m) {
				emit(ch);
				break;
			}
			const name = m[1]!;
			i += m[0].length;
			// A negative thin space pulls the next token against the previous one.
			if (name === "!" || name.startsWith("neg")) out = out.trimEnd();
			const command = convertCommand(src, name, i);
			if (FUNCTIONS.has(name)) {
				// Set apart from a word, number, bracket or function name before it (`det det y`).
				const spaced = afterFunction || /[\p{L}\p{N})\]}]$/u.test(out);
				emit(spaced && !/\s$/.test(out) ? " " : "");
				out += command.text;
				afterFunction = true;
			} else emit(command.text);
			i = command.end;
			continue;
		}
		if (ch === "^" || ch === "_") {
			const argument = readArgument(src, i + 1);
			const value = latexToUnicode(argument.text);
			const kind = ch === "^" ? "sup" : "sub";
			out = out.trimEnd() + (namesFunction(argument.text) ? script(value, kind, true) : script(value, kind));
			i = argument.end;
			continue;
		}
		i++;
		if (ch === "=" || ch === "<" || ch === ">") emit(` ${ch} `);
		else if (ch === "~") emit(" ");
		else if (ch !== "{" && ch !== "}" && ch !== "&") emit(ch);
	}
	return out;
}
