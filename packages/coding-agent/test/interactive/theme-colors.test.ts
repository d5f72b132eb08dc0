import { describe, expect, it } from "vitest";
import type { Theme } from "../../src/core/resources/index.js";
import { viewerThemeOf } from "../../src/export/export-theme.js";
import { UiTheme } from "../../src/modes/interactive/theme/ui-theme.js";

const okhslTheme: Theme = {
	name: "okhsl-accent",
	colors: { accent: { kind: "okhsl", h: 250, s: 0.6, l: 0.55 }, muted: { kind: "rgb", r: 255, g: 0, b: 0 } },
	export: {
		pageBg: { kind: "rgb", r: 250, g: 250, b: 250 },
		cardBg: { kind: "default" },
		infoBg: { kind: "default" },
	},
};

describe("theme file colours (docs/themes.md) in the terminal and in HTML exports", () => {
	it("an okhsl colour is a real colour in both, not the terminal default", () => {
		const terminal = UiTheme.fromResource(okhslTheme);
		const accent = terminal.fg("accent", "x");
		expect(accent).not.toBe("x");
		expect(accent).not.toBe(UiTheme.builtin().fg("accent", "x"));
		const page = viewerThemeOf(okhslTheme);
		expect(page.colors.accent).toMatch(/^#[0-9a-f]{6}$/);
		expect(page.colors.muted).toBe("#ff0000");
		expect(page.appearance).toBe("light");
	});
});
