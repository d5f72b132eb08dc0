import { describe, expect, it } from "vitest";
import type { ThemeDefinition } from "../../src/core/resources/index.js";
import { builtinTheme } from "../../src/core/resources/themes/builtin-theme.js";
import { Theme } from "../../src/core/resources/themes/theme.js";
import { viewerThemeOf } from "../../src/export/export-theme.js";

const okhslTheme: ThemeDefinition = {
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
		const terminal = Theme.fromDefinition(okhslTheme);
		const accent = terminal.fg("accent", "x");
		expect(accent).not.toBe("x");
		expect(accent).not.toBe(builtinTheme().fg("accent", "x"));
		const page = viewerThemeOf(terminal);
		expect(page.colors.accent).toMatch(/^#[0-9a-f]{6}$/);
		expect(page.colors.muted).toBe("#ff0000");
		expect(page.appearance).toBe("light");
	});
});
