import {
	hyperlink,
	Markdown,
	type MarkdownTheme,
	SelectList,
	sanitizeTerminalText,
	setCapabilityOverrides,
	Text,
	TruncatedText,
	visibleWidth,
} from "@tau/tui";
import { afterEach, describe, expect, it } from "vitest";
import { disallowedSequences, fuzzString, HOSTILE_FRAGMENTS, seededRandom } from "./helpers/terminal-safety.js";

afterEach(() => setCapabilityOverrides({}));

describe("sanitizeTerminalText", () => {
	it("removes clipboard, title, device-control and private strings whole, payload included", () => {
		const hostile = "a\x1b]52;c;cHduZWQ=\x07b\x1b]0;title\x1b\\c\x1bP+q\x1b\\d\x1b_Ga=d\x1b\\e\x9d2;t\x9cf";
		expect(sanitizeTerminalText(hostile)).toBe("abcdef");
	});

	it("removes cursor, screen and mode controls and lone ESC sequences", () => {
		expect(sanitizeTerminalText("x\x1b[2J\x1b[H\x1b[?1049h\x1b[6n\x1bc\x1b(0\x1b7\x9b2Jy")).toBe("xy");
	});

	it("keeps SGR only when asked to, and never OSC 8 hyperlinks", () => {
		const styled = "\x1b[31mred\x1b[0m \x1b]8;;https://evil.example\x07link\x1b]8;;\x07";
		expect(sanitizeTerminalText(styled)).toBe("red link");
		expect(sanitizeTerminalText(styled, { keepStyle: true })).toBe("\x1b[31mred\x1b[0m link");
		// A CSI that only looks like colour (a private or intermediate byte) is not SGR.
		expect(sanitizeTerminalText("\x1b[?31m\x1b[31 m.", { keepStyle: true })).toBe(".");
	});

	it("makes controls that could hide text visible: CR starts a new line, others show as control pictures", () => {
		expect(sanitizeTerminalText("rm -rf ~\r# harmless")).toBe("rm -rf ~\n# harmless");
		expect(sanitizeTerminalText("a\r\nb")).toBe("a\nb");
		expect(sanitizeTerminalText("abc\b\b\bxyz")).toBe("abc␈␈␈xyz");
		expect(sanitizeTerminalText("bell\x07nul\x00del\x7f")).toBe("bell␇nul␀del␡");
		expect(sanitizeTerminalText("tab\tand\nnewline")).toBe("tab\tand\nnewline");
	});

	it("ends an unterminated string at the line end instead of hiding the rest of the text", () => {
		expect(sanitizeTerminalText("one\x1b]52;c;AAAA\ntwo")).toBe("one\ntwo");
		expect(sanitizeTerminalText("tail \x1b[3")).toBe("tail ");
	});

	it("returns clean text unchanged (the same string)", () => {
		const clean = "plain text, ünïcödé, 漢字 😀\n\tindented";
		expect(sanitizeTerminalText(clean)).toBe(clean);
	});

	it("leaves nothing a terminal would act on, for every hostile fragment and random input", () => {
		for (const fragment of HOSTILE_FRAGMENTS) {
			const clean = sanitizeTerminalText(`<${fragment}>`).replaceAll("\n", "");
			expect(disallowedSequences(clean), JSON.stringify(fragment)).toEqual([]);
		}
		const random = seededRandom(16);
		for (let n = 0; n < 2000; n++) {
			const input = fuzzString(random);
			const plain = sanitizeTerminalText(input).replaceAll("\n", "");
			const styled = sanitizeTerminalText(input, { keepStyle: true }).replaceAll("\n", "");
			expect(disallowedSequences(plain), JSON.stringify(input)).toEqual([]);
			expect(disallowedSequences(styled), JSON.stringify(input)).toEqual([]);
			expect(plain.includes("\x1b"), JSON.stringify(input)).toBe(false);
		}
	});

	it("negative control: the checker reports what the sanitiser removes", () => {
		const colours = ["\x1b[31m", "\x1b[38;2;255;0;0m", "\x1b[0m"];
		for (const fragment of HOSTILE_FRAGMENTS.filter((f) => !colours.includes(f))) {
			expect(disallowedSequences(fragment), JSON.stringify(fragment)).not.toEqual([]);
		}
	});
});

describe("hyperlink", () => {
	it("drops controls from the URL so it cannot end the sequence early", () => {
		const link = hyperlink("x", "https://a.example/\x07\x1b]52;c;AAAA\x07");
		expect(disallowedSequences(link, { hyperlinks: true })).toEqual([]);
		expect(link).toContain("https://a.example/]52;c;AAAA");
	});
});

const identity = (t: string) => t;
const colour = (code: number) => (t: string) => `\x1b[${code}m${t}\x1b[39m`;
const theme: MarkdownTheme = {
	heading: colour(33),
	link: colour(34),
	linkUrl: colour(90),
	code: colour(36),
	codeBlock: identity,
	codeBlockBorder: colour(90),
	quote: colour(3),
	quoteBorder: colour(90),
	hr: colour(90),
	listBullet: colour(36),
	bold: (t) => `\x1b[1m${t}\x1b[22m`,
	italic: (t) => `\x1b[3m${t}\x1b[23m`,
	strikethrough: (t) => `\x1b[9m${t}\x1b[29m`,
	underline: (t) => `\x1b[4m${t}\x1b[24m`,
};

describe("the TUI's text components with sanitised random input", () => {
	it("emit only SGR (and tau's own OSC 8 links) and never exceed the width", () => {
		const random = seededRandom(1706);
		for (let n = 0; n < 400; n++) {
			setCapabilityOverrides({ hyperlinks: n % 2 === 0 });
			const input = fuzzString(random);
			const text = sanitizeTerminalText(input);
			const styled = sanitizeTerminalText(input, { keepStyle: true });
			// From 2 columns: a double-width character cannot be shown in one at all.
			const width = 2 + Math.floor(random() * 100);
			const rendered: [string, readonly string[]][] = [
				["Text", new Text(styled, 1, 1).render(width)],
				["TruncatedText", new TruncatedText(styled, 1, 0).render(width)],
				["Markdown", new Markdown(text, 1, 0, theme).render(width)],
				["SelectList", selectList(text, width)],
			];
			for (const [name, lines] of rendered) {
				for (const line of lines) {
					const where = `${name} at width ${width}: ${JSON.stringify(input)}`;
					expect(disallowedSequences(line, { hyperlinks: name === "Markdown" }), where).toEqual([]);
					expect(visibleWidth(line), where).toBeLessThanOrEqual(width);
				}
			}
		}
	});
});

function selectList(text: string, width: number): readonly string[] {
	const list = new SelectList(
		[
			{ value: "a", label: text, description: text },
			{ value: "b", label: "second" },
		],
		5,
		{
			selectedPrefix: colour(34),
			selectedText: colour(34),
			description: colour(90),
			scrollInfo: colour(90),
			noMatch: colour(90),
		},
	);
	return list.render(width);
}
