import { describe, expect, it } from "vitest";
import {
	type HighlightedCode,
	highlightIncrementally,
	highlightLines,
	type SyntaxStyler,
} from "../../src/modes/interactive/theme/syntax-highlight.js";

/** Makes token colours visible in the output: `<syntaxKeyword|def>`. */
const styler: SyntaxStyler = { fg: (token, text) => `<${token}|${text}>` };

const SOURCES: Record<string, string> = {
	python: [
		"import math",
		'"""A module docstring',
		'that spans lines."""',
		"def area(r):  # circle",
		"    return math.pi * r ** 2",
		"",
		"print  (area(2), 'x\\'y', f\"{r}\")",
		"value = 0x1f + 3.5e2",
		"call",
		"",
		"(1)",
	].join("\n"),
	typescript: [
		"/* a block",
		"   comment */",
		"const s = `template",
		"$" + "{x} literal`;",
		"function f<T>(a: T): string {",
		"\treturn String(a); // done",
		"}",
		"foo",
		"  (bar)",
		"const unterminated = 'abc",
		"let n = 1_000;",
	].join("\n"),
	bash: ['echo "$HOME" $' + "{PATH} $1 # comment", "a#b", "cat <<EOF", "x", "EOF", "ls -la | grep '^d'"].join("\n"),
	unknown: ["plain", "lines", "only"].join("\n"),
};

describe("incremental syntax highlighting", () => {
	it("extending the code gives the same lines as highlighting it whole, for every prefix", () => {
		for (const [lang, code] of Object.entries(SOURCES)) {
			let state: HighlightedCode | undefined;
			for (let end = 1; end <= code.length; end++) {
				const prefix = code.slice(0, end);
				state = highlightIncrementally(styler, prefix, lang, state);
				expect(state.lines, `${lang}, prefix of ${end} characters`).toEqual(highlightLines(styler, prefix, lang));
			}
		}
	});

	it("extends in pieces of any size, and starts over when the code is not an extension", () => {
		const code = SOURCES.python!;
		for (const step of [2, 7, 23]) {
			let state: HighlightedCode | undefined;
			for (let end = step; end < code.length + step; end += step) {
				const prefix = code.slice(0, end);
				state = highlightIncrementally(styler, prefix, "python", state);
				expect(state.lines).toEqual(highlightLines(styler, prefix, "python"));
			}
		}
		const first = highlightIncrementally(styler, "x = 'a'", "python");
		expect(highlightIncrementally(styler, "y = 1", "python", first).lines).toEqual([
			"y <syntaxOperator|=> <syntaxNumber|1>",
		]);
		expect(highlightIncrementally(styler, "x = 'a'\nz", "bash", first).lines).toEqual(
			highlightLines(styler, "x = 'a'\nz", "bash"),
		);
	});

	it("resumes from a late line instead of rescanning the whole block", () => {
		const lines = Array.from({ length: 200 }, (_, i) => `value_${i} = compute(${i})`);
		const state = highlightIncrementally(styler, lines.join("\n"), "python");
		expect(state.resumeLine).toBeGreaterThanOrEqual(198);
		// Lines before the resumption point are reused as they are (the same strings).
		const next = highlightIncrementally(styler, `${lines.join("\n")} + 1`, "python", state);
		expect(next.lines[10]).toBe(state.lines[10]);
		// An unclosed triple-quoted string keeps later lines from being resumption points.
		const open = highlightIncrementally(styler, `x = 1\n"""doc\nmore\ntext`, "python");
		expect(open.resumeLine).toBe(1);
	});
});
