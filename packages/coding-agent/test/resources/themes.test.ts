import { join } from "node:path";
import type { SourceInfo } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import {
	detectTerminalAppearance,
	parseThemeSetting,
	REQUIRED_THEME_TOKENS,
	resolveThemeColor,
	validateTheme,
} from "../../src/core/resources/index.js";
import { loadThemes } from "../../src/core/resources/themes/theme-files.js";
import { resourceDirs, write, writeJson } from "./helpers.js";

const source: SourceInfo = { path: "", source: "local", scope: "user", origin: "top-level" };

function themeJson(name: string, overrides: Record<string, unknown> = {}) {
	const colors = Object.fromEntries(REQUIRED_THEME_TOKENS.map((token) => [token, "primary"]));
	return { name, vars: { primary: "#336699" }, colors, ...overrides };
}

describe("theme colors", () => {
	it("parses the six color forms", () => {
		expect(resolveThemeColor("#0af", {})).toEqual({ kind: "rgb", r: 0, g: 0xaa, b: 0xff });
		expect(resolveThemeColor("#00aaff", {})).toEqual({ kind: "rgb", r: 0, g: 0xaa, b: 0xff });
		expect(resolveThemeColor("oklch(62% 0.1 200)", {})).toEqual({ kind: "oklch", l: 0.62, c: 0.1, h: 200 });
		expect(resolveThemeColor("okhsl(250 60% 55%)", {})).toEqual({ kind: "okhsl", h: 250, s: 0.6, l: 0.55 });
		expect(resolveThemeColor(39, {})).toEqual({ kind: "palette", index: 39 });
		expect(resolveThemeColor("", {})).toEqual({ kind: "default" });
		expect(resolveThemeColor("accent", { accent: "base", base: 12 })).toEqual({ kind: "palette", index: 12 });
	});

	it("rejects palette indexes outside 0..255, bad values, missing variables and cycles", () => {
		expect(resolveThemeColor(0, {})).toEqual({ kind: "palette", index: 0 });
		expect(resolveThemeColor(255, {})).toEqual({ kind: "palette", index: 255 });
		expect(resolveThemeColor(256, {})).toHaveProperty("error");
		expect(resolveThemeColor(-1, {})).toHaveProperty("error");
		expect(resolveThemeColor(1.5, {})).toHaveProperty("error");
		expect(resolveThemeColor("#12345", {})).toHaveProperty("error");
		expect(resolveThemeColor("oklch(1 2)", {})).toHaveProperty("error");
		expect(resolveThemeColor("nope", {})).toEqual({ error: 'unknown variable "nope"' });
		expect(resolveThemeColor("a", { a: "b", b: "a" })).toEqual({ error: "variable cycle a -> b -> a" });
	});
});

describe("theme validation", () => {
	it("accepts a complete theme and fills optional tokens and export colors from fallbacks", () => {
		const { theme, errors } = validateTheme(
			themeJson("ocean", { colors: { ...themeJson("x").colors, muted: 8, scrollbarThumb: "#fff" } }),
		);
		expect(errors).toEqual([]);
		expect(theme?.colors.scrollbarTrack).toEqual({ kind: "palette", index: 8 });
		expect(theme?.colors.scrollbarThumb).toEqual({ kind: "rgb", r: 255, g: 255, b: 255 });
		expect(theme?.colors.thinkingMax).toEqual(theme?.colors.thinkingXhigh);
		expect(theme?.export.pageBg).toEqual(theme?.colors.userMessageBg);
	});

	it("reports a missing token, unknown keys, bad names and bad colors", () => {
		const colors: Record<string, unknown> = { ...themeJson("x").colors, bogusToken: "#000", text: "#zzz" };
		delete colors.accent;
		const { theme, errors } = validateTheme({
			...themeJson("a/b"),
			colors,
			extra: true,
			export: { pageBg: "#000", nope: 1 },
		});
		expect(theme).toBeUndefined();
		expect(errors).toEqual(
			expect.arrayContaining([
				'unknown property "extra"',
				'theme name "a/b" must not contain "/"',
				'unknown color token "bogusToken"',
				'missing color token "accent"',
				'colors.text: invalid hex color "#zzz"',
				'unknown export color "nope"',
			]),
		);
	});

	it("loads themes from a directory, skipping bad ones with diagnostics naming the file", () => {
		const { root } = resourceDirs();
		const dir = join(root, "themes");
		writeJson(join(dir, "good.json"), themeJson("good"));
		const bad = writeJson(join(dir, "bad.json"), themeJson("bad", { vars: { primary: "#not-a-color" } }));
		const broken = write(join(dir, "broken.json"), "{ not json");
		const system = writeJson(join(dir, "system.json"), themeJson("system"));
		const { themes, diagnostics } = loadThemes([{ path: dir, sourceInfo: source }]);
		expect(themes.map((theme) => theme.name)).toEqual(["good"]);
		expect(themes[0]?.sourcePath).toBe(join(dir, "good.json"));
		expect(diagnostics).toEqual([
			{
				type: "warning",
				message: expect.stringMatching(/^Invalid theme .*bad\.json: colors\.accent: invalid hex/),
				path: bad,
			},
			{ type: "warning", message: expect.stringMatching(/^Failed to parse theme .*broken\.json/), path: broken },
			{ type: "warning", message: 'theme name "system" is reserved; theme ignored', path: system },
		]);
	});

	it("reports same-named themes as collisions and missing or non-json paths as warnings", () => {
		const { root } = resourceDirs();
		const first = writeJson(join(root, "a", "one.json"), themeJson("same"));
		const second = writeJson(join(root, "b", "two.json"), themeJson("same"));
		const { themes, diagnostics } = loadThemes([
			{ path: first, sourceInfo: source },
			{ path: join(root, "b"), sourceInfo: source },
			{ path: join(root, "missing.json"), sourceInfo: source },
			{ path: join(root, "a"), sourceInfo: source },
		]);
		expect(themes).toHaveLength(1);
		expect(diagnostics).toEqual([
			{ type: "warning", message: "theme path does not exist", path: join(root, "missing.json") },
			{
				type: "collision",
				message: 'name "same" collision',
				path: second,
				collision: { resourceType: "theme", name: "same", winnerPath: first, loserPath: second },
			},
		]);
	});
});

describe("theme setting and appearance", () => {
	it("parses light/dark pairs only with exactly one slash and two non-empty sides", () => {
		expect(parseThemeSetting("day / night")).toEqual({ light: "day", dark: "night" });
		expect(parseThemeSetting("ocean")).toEqual({ name: "ocean" });
		expect(parseThemeSetting("a/b/c")).toEqual({ name: "a/b/c" });
		expect(parseThemeSetting("/dark")).toEqual({ name: "/dark" });
	});

	it("detects appearance from the reported background, then the notification, then COLORFGBG", () => {
		expect(
			detectTerminalAppearance({ reportedBackground: { r: 250, g: 250, b: 250 }, notifiedAppearance: "dark" }),
		).toBe("light");
		expect(detectTerminalAppearance({ notifiedAppearance: "light", colorFgBg: "15;0" })).toBe("light");
		expect(detectTerminalAppearance({ colorFgBg: "15;0" })).toBe("dark");
		expect(detectTerminalAppearance({ colorFgBg: "0;default;15" })).toBe("light");
		expect(detectTerminalAppearance({ colorFgBg: "0;7" })).toBe("light");
		expect(detectTerminalAppearance({ colorFgBg: "15;8" })).toBe("dark");
		expect(detectTerminalAppearance({ colorFgBg: "0;99" })).toBe("dark");
		expect(detectTerminalAppearance({})).toBe("dark");
	});
});
