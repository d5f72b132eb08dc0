import {
	colorToHex,
	colorToRgb,
	detectCapabilities,
	formatProgramStatus,
	getCapabilities,
	getTerminalColorMode,
	mixColors,
	parseColor,
	resetCapabilitiesCache,
	setCapabilities,
	setCapabilityOverrides,
	styleText,
} from "@tau/tui";
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
	vi.unstubAllEnvs();
	setCapabilityOverrides({});
	setCapabilities(undefined);
	resetCapabilitiesCache();
});

describe("capability detection", () => {
	it("detects terminals from the environment", () => {
		expect(detectCapabilities({ KITTY_WINDOW_ID: "1" })).toEqual({
			images: "kitty",
			trueColor: false,
			hyperlinks: true,
		});
		expect(detectCapabilities({ TERM_PROGRAM: "ghostty", COLORTERM: "truecolor" })).toMatchObject({
			images: "kitty",
			trueColor: true,
		});
		expect(detectCapabilities({ ITERM_SESSION_ID: "x" }).images).toBe("iterm2");
		expect(detectCapabilities({ TERM: "screen-256color" })).toEqual({
			images: null,
			trueColor: false,
			hyperlinks: false,
		});
		expect(detectCapabilities({ WT_SESSION: "1" })).toEqual({ images: null, trueColor: true, hyperlinks: true });
		expect(detectCapabilities({ TERM: "xterm-direct" }).trueColor).toBe(true);
		expect(detectCapabilities({ TERM: "xterm-256color" })).toEqual({
			images: null,
			trueColor: false,
			hyperlinks: false,
		});
	});

	it("applies environment overrides, then application overrides", () => {
		setCapabilities({ images: null, trueColor: false, hyperlinks: false });
		vi.stubEnv("TAU_HYPERLINKS", "1");
		vi.stubEnv("TAU_IMAGE_PROTOCOL", "kitty");
		vi.stubEnv("TAU_TRUE_COLOR", "1");
		expect(getCapabilities()).toEqual({ images: "kitty", trueColor: true, hyperlinks: true });
		expect(getTerminalColorMode()).toBe("truecolor");
		setCapabilityOverrides({ hyperlinks: false, images: "auto", trueColor: false });
		expect(getCapabilities()).toEqual({ images: "kitty", trueColor: false, hyperlinks: false });
		expect(getTerminalColorMode()).toBe("256color");
	});
});

describe("colours", () => {
	it("parses colours and rejects invalid values", () => {
		expect(parseColor(196)).toEqual({ kind: "indexed", index: 196 });
		expect(parseColor("#f80")).toEqual({ kind: "rgb", r: 255, g: 136, b: 0 });
		expect(parseColor("oklch(50% 0.1 120)")).toEqual({ kind: "oklch", l: 0.5, c: 0.1, h: 120 });
		expect(() => parseColor("blue-ish")).toThrow("Invalid color value: blue-ish");
		// OKHSL: zero saturation is gray at the toe-mapped lightness; full saturation reaches the gamut edge.
		expect(parseColor("okhsl(240 0% 50%)")).toEqual({ kind: "rgb", r: 119, g: 119, b: 119 });
		expect(parseColor("okhsl(264 100% 40%)")).toEqual({ kind: "rgb", r: 2, g: 58, b: 244 });
		expect(() => parseColor("okhsl(264 120% 40%)")).toThrow("s must be between 0 and 1: 1.2");
		expect(() => parseColor(300)).toThrow("ANSI color index must be an integer from 0 to 255: 300");
	});

	it("converts indexed and OKLCH colours to sRGB", () => {
		expect(colorToRgb({ kind: "indexed", index: 16 + 36 * 5 })).toEqual({ r: 255, g: 0, b: 0 });
		expect(colorToRgb({ kind: "indexed", index: 232 })).toEqual({ r: 8, g: 8, b: 8 });
		const white = colorToRgb({ kind: "oklch", l: 1, c: 0, h: 0 });
		expect(white).toEqual({ r: 255, g: 255, b: 255 });
		const clipped = colorToRgb({ kind: "oklch", l: 0.6, c: 0.5, h: 30 });
		for (const v of Object.values(clipped)) expect(v).toBeGreaterThanOrEqual(0);
	});

	it("mixes and styles with specific closers", () => {
		const mid = mixColors(parseColor("#000000"), parseColor("#ffffff"), 0.5, "srgb");
		expect(colorToRgb(mid)).toEqual({ r: 127.5, g: 127.5, b: 127.5 });
		expect(colorToHex(mid)).toBe("#808080");
		expect(styleText("x", { fg: parseColor("#ff0000"), bold: true })).toBe(
			"\x1b[38;2;255;0;0m\x1b[1mx\x1b[22m\x1b[39m",
		);
		expect(styleText("x", { fg: parseColor("#ff0000") }, "256color")).toBe("\x1b[38;5;196mx\x1b[39m");
		expect(styleText("x", { bg: parseColor(4) })).toBe("\x1b[48;5;4mx\x1b[49m");
	});
});

describe("program status (OSC 7501)", () => {
	it("encodes state, app, kind and a base64 message", () => {
		expect(formatProgramStatus({ state: "working", app: "tau" })).toBe("\x1b]7501;state=working:app=tau\x1b\\");
		expect(formatProgramStatus({ state: "blocked", kind: "permission", message: " run\nrm? " })).toBe(
			`\x1b]7501;state=blocked:kind=permission:msg=${Buffer.from("run rm?").toString("base64")}\x1b\\`,
		);
		expect(formatProgramStatus({ state: "done", app: "bad app!", kind: "auth", message: "   " })).toBe(
			"\x1b]7501;state=done\x1b\\",
		);
	});
	it("truncates the message to 2048 UTF-8 bytes on a character boundary", () => {
		const encoded = formatProgramStatus({ state: "idle", message: "é".repeat(2000) });
		const msg = /msg=([^\x1b]+)/.exec(encoded)![1]!;
		const decoded = Buffer.from(msg, "base64").toString("utf8");
		expect(Buffer.byteLength(decoded)).toBe(2048);
		expect(decoded).toBe("é".repeat(1024));
	});
});
