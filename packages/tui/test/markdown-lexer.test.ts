import { describe, expect, it } from "vitest";
import { type LexedMarkdown, lexMarkdown } from "../src/components/markdown/lexer.js";

const DOCUMENT = [
	"# Title",
	"",
	"A paragraph that keeps",
	"growing over lines with **bold** and `code`.",
	"Setext heading below",
	"====",
	"",
	"- item one",
	"- item two",
	"",
	"- loose item after a blank line",
	"  continued",
	"",
	"1. first",
	"2. second",
	"",
	"> quote",
	"lazy continuation",
	"",
	"| a | b |",
	"|---|---|",
	"| 1 | 2 |",
	"",
	"```ts",
	"const x = 1;",
	"",
	"const y = 2;",
	"```",
	"",
	"Math $x^2$ and a rule:",
	"",
	"---",
	"",
	"<div>html</div>",
	"",
	"End.",
].join("\n");

const shape = (l: LexedMarkdown) => l.tokens.map((t) => [t.type, t.raw]);

describe("incremental Markdown lexing", () => {
	it("streaming any prefix gives the same tokens as lexing the whole text", () => {
		let state: LexedMarkdown | undefined;
		for (let end = 1; end <= DOCUMENT.length; end++) {
			const source = DOCUMENT.slice(0, end);
			state = lexMarkdown(source, state);
			const full = lexMarkdown(source, undefined);
			expect(shape(state), `prefix of ${end} characters`).toEqual(shape(full));
		}
	});

	// About 30,000 lexes: a loaded machine must not turn this into a timeout failure.
	it("matches a full lex on every prefix of generated documents", { timeout: 90_000 }, () => {
		const fragments = [
			"para text\n",
			"more words\n",
			"\n",
			"- item\n",
			"  nested\n",
			"1) one\n",
			"> quote\n",
			"```\n",
			"code\n",
			"~~~\n",
			"===\n",
			"---\n",
			"| a | b |\n",
			"|---|---|\n",
			"    indented\n",
			"# head\n",
			"<div>\n",
			"* star\n",
			"$$\n",
			"x^2\n",
		];
		let seed = 7;
		const random = () => {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			return seed / 2147483648;
		};
		for (let doc = 0; doc < 150; doc++) {
			let text = "";
			for (let k = 0; k < 12; k++) text += fragments[Math.floor(random() * fragments.length)];
			let state: LexedMarkdown | undefined;
			for (let end = 1; end <= text.length; end++) {
				const source = text.slice(0, end);
				state = lexMarkdown(source, state);
				expect(shape(state), JSON.stringify(source)).toEqual(shape(lexMarkdown(source, undefined)));
			}
		}
	});

	it("falls back to a full lex when the text is not an extension or defines references", () => {
		const a = lexMarkdown("para one\n\npara two", undefined);
		const edited = lexMarkdown("para ONE\n\npara two", a);
		expect(shape(edited)).toEqual(shape(lexMarkdown("para ONE\n\npara two", undefined)));
		const withRef = lexMarkdown("see [x]\n\n[x]: https://x.test\n", a);
		expect(withRef.hasReferenceLinks).toBe(true);
	});
});
