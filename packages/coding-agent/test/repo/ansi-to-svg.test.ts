import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ansiToSvg, paletteColor, parseCapture } from "../../../../scripts/screenshot/ansi-to-svg.mjs";

const sample = readFileSync(join(import.meta.dirname, "../fixtures/screenshot/sample.ansi"), "utf8");

describe("the README picture's ANSI-to-SVG converter (scripts/screenshot/ansi-to-svg.mjs)", () => {
	it("keeps each run of text with its colours and attributes, in terminal cells", () => {
		const rows = parseCapture(sample);
		expect(rows).toHaveLength(4);
		const [title, tool, link, attributes] = rows;
		expect(title!.map((run) => [run.col, run.text])).toEqual([
			[0, "tau"],
			[3, " "],
			[4, "v0.1.0"],
		]);
		expect(title![0]!.style).toMatchObject({ bold: true, fg: "#00afff" });
		expect(title![2]!.style).toMatchObject({ dim: true, fg: undefined });
		expect(tool!.map((run) => [run.text, run.style.fg, run.style.bg])).toEqual([
			[" ls ", undefined, "#006400"],
			[". (0.0s)", "#c8c8c8", "#006400"],
			[" <a & b>", undefined, undefined],
		]);
		// Escape sequences other than colours (an OSC 8 link) leave only their text; wide characters take two cells.
		expect(link!.map((run) => run.text).join("")).toBe("link 日本");
		expect(link!.reduce((cells, run) => cells + run.cells, 0)).toBe(9);
		expect(attributes![0]!.style.inverse).toBe(true);
		expect(attributes![2]!.style).toMatchObject({ underline: true, fg: paletteColor(1) });
	});

	it("maps the 256-colour palette: the sixteen, the colour cube and the greys", () => {
		expect(paletteColor(1)).toBe("#cd3131");
		expect(paletteColor(16)).toBe("#000000");
		expect(paletteColor(196)).toBe("#ff0000");
		expect(paletteColor(231)).toBe("#ffffff");
		expect(paletteColor(232)).toBe("#080808");
	});

	it("draws backgrounds as cell-aligned rectangles and escapes the text", () => {
		const svg = ansiToSvg(sample, { cols: 20, title: "tau <demo>" });
		expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="192"')).toBe(true);
		expect(svg).toContain('<rect x="12.0" y="58" width="33.6" height="18" fill="#006400"/>');
		expect(svg).toContain(">tau &lt;demo&gt;</text>");
		expect(svg).toContain('xml:space="preserve"> &lt;a &amp; b&gt;</text>');
		expect(svg).toContain('font-weight="bold" xml:space="preserve">tau</text>');
		// Inverse swaps the colours: default text colour as background.
		expect(svg).toContain('fill="#d4d4d4"/>');
	});
});
