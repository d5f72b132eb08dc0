import {
	Markdown,
	type MarkdownTheme,
	renderLatex,
	setCapabilityOverrides,
	stripTerminalSequences,
	visibleWidth,
} from "@tau/tui";
import { afterEach, describe, expect, it } from "vitest";
import { plainMarkdownTheme } from "./helpers/themes.js";

function tagTheme(counts: Record<string, number> = {}): MarkdownTheme {
	const tag = (name: string) => (t: string) => {
		counts[name] = (counts[name] ?? 0) + 1;
		return `<${name}>${t}</${name}>`;
	};
	return {
		heading: tag("h"),
		link: tag("a"),
		linkUrl: tag("url"),
		code: tag("code"),
		codeBlock: tag("cb"),
		codeBlockBorder: tag("border"),
		quote: tag("q"),
		quoteBorder: tag("qb"),
		hr: tag("hr"),
		listBullet: tag("li"),
		bold: tag("b"),
		italic: tag("i"),
		strikethrough: tag("s"),
		underline: tag("u"),
	};
}

afterEach(() => setCapabilityOverrides({}));

describe("Markdown", () => {
	it("renders paragraphs, emphasis and wraps at the content width", () => {
		const md = new Markdown("Some **bold** and *italic* text that wraps around", 1, 0, tagTheme());
		const lines = md.render(20);
		expect(lines[0]).toContain("<b>bold</b>");
		for (const l of new Markdown("word ".repeat(30), 1, 0, plainMarkdownTheme).render(20))
			expect(visibleWidth(l)).toBeLessThanOrEqual(20);
	});

	it("fences code blocks with the border style and indents code", () => {
		const md = new Markdown("```ts\nconst a = 1;\n```\nafter", 0, 0, tagTheme());
		const lines = md.render(40);
		expect(lines[0]).toBe("<border>```ts</border>");
		expect(lines[1]).toBe("  <cb>const a = 1;</cb>");
		expect(lines[2]).toBe("<border>```</border>");
		expect(lines[3]).toBe("");
		expect(lines[4]).toBe("after");
	});

	it("uses the highlighter once per (lang, code)", () => {
		let calls = 0;
		const highlightCode = (code: string) => {
			calls++;
			return code.split("\n").map((l) => `H:${l}`);
		};
		const theme = { ...plainMarkdownTheme, highlightCode };
		const md = new Markdown("```js\nx\n```\n\npara", 0, 0, theme);
		expect(md.render(30)).toContain("  H:x");
		md.setText("```js\nx\n```\n\npara more");
		md.render(30);
		expect(calls).toBe(1);
	});

	it("shows link URLs without hyperlink support and OSC 8 with it", () => {
		setCapabilityOverrides({ hyperlinks: false });
		const text = "see [docs](https://example.com) and <https://x.test>";
		const plain = new Markdown(text, 0, 0, plainMarkdownTheme).render(80).join("\n");
		expect(plain).toContain("docs (https://example.com)");
		expect(plain).not.toContain("x.test (https://x.test)");
		setCapabilityOverrides({ hyperlinks: true });
		const linked = new Markdown(text, 0, 0, plainMarkdownTheme).render(80).join("\n");
		expect(linked).toContain("\x1b]8;;https://example.com\x1b\\docs\x1b]8;;\x1b\\");
		expect(stripTerminalSequences(linked)).not.toContain("(https://example.com)");
	});

	it("streaming: appending to the last paragraph re-renders only the last block", () => {
		const counts: Record<string, number> = {};
		const md = new Markdown("# Title\n\nFirst **para**.\n\nSecond", 0, 0, tagTheme(counts));
		md.render(60);
		const boldBefore = counts.b!;
		const headingBefore = counts.h!;
		md.setText("# Title\n\nFirst **para**.\n\nSecond paragraph grows");
		const second = md.render(60);
		// The first paragraph (the only bold text) was not rendered again.
		expect(counts.b).toBe(boldBefore);
		expect(counts.h).toBe(headingBefore);
		expect(second[second.length - 1]).toBe("Second paragraph grows");
		md.invalidate();
		md.render(60);
		expect(counts.h).toBe(headingBefore + 1);
	});

	it("streaming: every update renders as the whole text would, code blocks included", () => {
		const text = [
			"Intro with **bold**.",
			"",
			"```py",
			"def f(x):  # a comment long enough to wrap at this width",
			"    return x * 2",
			"```",
			"",
			"> quoted",
			"> ```sh",
			"> echo a very long command line that wraps inside the quote",
			"> ```",
			"",
			"End.",
		].join("\n");
		const highlightCode = (code: string) => code.split("\n").map((l) => `H:${l}`);
		const theme = { ...tagTheme(), highlightCode };
		const streamed = new Markdown("", 1, 0, theme);
		for (let end = 1; end <= text.length; end++) {
			streamed.setText(text.slice(0, end));
			const fresh = new Markdown(text.slice(0, end), 1, 0, theme);
			expect(streamed.render(30), `prefix of ${end} characters`).toEqual(fresh.render(30));
		}
		expect(streamed.render(50)).toEqual(new Markdown(text, 1, 0, theme).render(50));
	});

	// A long streamed paragraph is lexed from its last clean stretch on (lexer.ts growLastParagraph).
	it("streaming a one-line paragraph rich in inline syntax renders as the whole text would", {
		timeout: 60_000,
	}, () => {
		const pieces = [
			"the ",
			"word ",
			"**bold** ",
			"*em* ",
			"`code` ",
			"~~del~~ ",
			"**open ",
			"*",
			"_x_ ",
			"a_b ",
			"[link](u) ",
			"$m$ ",
			"\\* ",
			"&amp; ",
			"www.x.io ",
			"a@b.io ",
			"<b> ",
			"tail",
			"**",
			"`",
			"*",
		];
		let seed = 11;
		const random = () => {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			return seed / 2147483648;
		};
		const theme = tagTheme();
		for (let doc = 0; doc < 40; doc++) {
			let text = "Start ";
			for (let k = 0; k < 30; k++) text += pieces[Math.floor(random() * pieces.length)];
			const streamed = new Markdown("", 0, 0, theme);
			for (let end = 1; end <= text.length; end++) {
				streamed.setText(text.slice(0, end));
				expect(streamed.render(40), `"${text.slice(0, end)}"`).toEqual(
					new Markdown(text.slice(0, end), 0, 0, theme).render(40),
				);
			}
		}
	});

	it("renders lists, quotes, rules and tables within the width", () => {
		const md = new Markdown(
			"- one\n- two\n  - nested\n\n1. first\n2. second\n\n> quoted\n\n---\n\n| a | b |\n|---|---|\n| long cell content here | 2 |",
			0,
			0,
			plainMarkdownTheme,
		);
		const lines = md.render(24);
		expect(lines).toContain("- one");
		expect(lines).toContain("  - nested");
		expect(lines).toContain("1. first");
		expect(lines).toContain("│ quoted");
		expect(lines.some((l) => l.startsWith("┌"))).toBe(true);
		for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(24);
	});

	it("returns no lines for blank text, honours padding and background", () => {
		expect(new Markdown("  \n", 1, 1, plainMarkdownTheme).render(10)).toEqual([]);
		const lines = new Markdown("hi", 1, 1, plainMarkdownTheme, { bgColor: (t) => `[${t}]` }).render(6);
		expect(lines).toEqual(["[      ]", "[ hi   ]", "[      ]"]);
	});

	it("drops HTML comments and a partial closing fence while streaming", () => {
		const lines = new Markdown("<!-- hidden -->\n\ntext\n\n```\ncode\n``", 0, 0, plainMarkdownTheme).render(30);
		expect(lines.join("\n")).not.toContain("hidden");
		expect(lines).not.toContain("  ``");
	});

	it("parses emphasis next to CJK punctuation", () => {
		const lines = new Markdown("这是**加粗。**后面，还有*斜体。*的", 0, 0, tagTheme()).render(60);
		expect(lines[0]).toContain("<b>加粗。</b>后面");
		expect(lines[0]).toContain("<i>斜体。</i>的");
		expect(new Markdown("a **b** c", 0, 0, tagTheme()).render(20)[0]).toBe("a <b>b</b> c");
	});

	it("renders LaTeX math as Unicode text unless disabled, leaving dollar amounts alone", () => {
		const text = "Energy $E = mc^2$ costs $5 and $10.\n\n$$\n\\frac{a}{b} \\leq \\sqrt{x}\n$$";
		const lines = new Markdown(text, 0, 0, plainMarkdownTheme).render(60);
		expect(lines[0]).toBe("Energy E = mc² costs $5 and $10.");
		// Display math stacks the fraction over a rule, aligned with the text after it.
		const block = lines.indexOf("  a");
		expect(lines.slice(block, block + 3)).toEqual(["  a", "  ─ ≤ √x", "  b"]);
		const raw = new Markdown(text, 0, 0, plainMarkdownTheme, undefined, { renderLatex: false }).render(60);
		expect(raw[0]).toBe("Energy $E = mc^2$ costs $5 and $10.");
	});

	it("shows math the renderer does not understand as written", () => {
		// `\constructor` names no LaTeX command, though every object has a property of that name.
		const lines = new Markdown("See $\\constructor x$ and $\\color{red}{x}$.", 0, 0, plainMarkdownTheme).render(60);
		expect(lines[0]).toBe("See $\\constructor x$ and $\\color{red}{x}$.");
		expect(renderLatex("\\toString")).toBeUndefined();
		expect(renderLatex("\\hat{\\constructor}", { display: true })).toBeUndefined();
	});

	it("keeps backslash escapes and original ordered markers on request", () => {
		const options = { preserveBackslashEscapes: true, preserveOrderedListMarkers: true };
		const lines = new Markdown(
			"\\*not emphasis\\*\n\n3) third\n4) fourth",
			0,
			0,
			plainMarkdownTheme,
			undefined,
			options,
		).render(40);
		expect(lines[0]).toBe("\\*not emphasis\\*");
		expect(lines).toContain("3) third");
		expect(new Markdown("3) third", 0, 0, plainMarkdownTheme).render(40)).toEqual(["3. third"]);
	});
});
