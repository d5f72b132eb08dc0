import { getCellDimensions, parseTerminalColor, setCellDimensions, TuiMainScreen } from "@tau/tui";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Lines } from "./helpers/components.js";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

beforeEach(() => {
	vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
	vi.useRealTimers();
});

function setup() {
	const term = new VirtualTerminal(40, 10);
	const tui = new TuiMainScreen(term);
	const keys: string[] = [];
	const focus = Object.assign(new Lines([""]), { handleInput: (d: string) => keys.push(d) });
	tui.addChild(focus);
	tui.setFocus(focus);
	tui.start();
	return { term, tui, keys };
}

describe("terminal colour queries", () => {
	it("parses rgb:, rgba: and # colours scaled to 0-255", () => {
		expect(parseTerminalColor("rgb:ffff/8080/0000")).toEqual({ r: 255, g: 128, b: 0 });
		expect(parseTerminalColor("rgb:f/8/0")).toEqual({ r: 255, g: 136, b: 0 });
		expect(parseTerminalColor("rgba:ff/00/00/ff")).toEqual({ r: 255, g: 0, b: 0 });
		expect(parseTerminalColor("#102030")).toEqual({ r: 16, g: 32, b: 48 });
		expect(parseTerminalColor("nonsense")).toBeUndefined();
	});

	it("writes the query, consumes replies and resolves on the DA1 sentinel", async () => {
		const { term, tui, keys } = setup();
		term.clearRawOutput();
		const result = tui.queryTerminalColors({ timeoutMs: 100 });
		expect(term.getRawOutput()).toContain("\x1b]10;?\x07\x1b]11;?\x07\x1b]4;0;?\x07");
		expect(term.getRawOutput().endsWith("\x1b]4;15;?\x07\x1b[c")).toBe(true);
		term.sendInput("\x1b]10;rgb:ffff/ffff/ffff\x1b\\");
		term.sendInput("\x1b]11;rgb:0000/0000/0000\x07");
		term.sendInput("\x1b[?62;22c");
		expect(await result).toEqual({ foreground: { r: 255, g: 255, b: 255 }, background: { r: 0, g: 0, b: 0 } });
		expect(keys).toEqual([]);
		tui.stop();
	});

	it("resolves at the timeout and reports late replies", async () => {
		const { term, tui } = setup();
		const late = vi.fn();
		const result = tui.queryTerminalColors({ timeoutMs: 100, onLateReply: late });
		vi.advanceTimersByTime(100);
		expect(await result).toEqual({});
		term.sendInput("\x1b]11;rgb:1010/2020/3030\x07");
		term.sendInput("\x1b[?62c");
		expect(late).toHaveBeenCalledWith({ background: { r: 16, g: 32, b: 48 } });
		tui.stop();
	});

	it("reports colour-scheme changes and consumes them", () => {
		const { term, tui, keys } = setup();
		const schemes: string[] = [];
		tui.onTerminalColorSchemeChange((s) => schemes.push(s));
		term.clearRawOutput();
		tui.setTerminalColorSchemeNotifications(true);
		expect(term.getRawOutput()).toBe("\x1b[?2031h");
		term.sendInput("\x1b[?997;2n");
		term.sendInput("\x1b[?997;1n");
		expect(schemes).toEqual(["light", "dark"]);
		expect(keys).toEqual([]);
		term.clearRawOutput();
		tui.stop();
		expect(term.getRawOutput()).toContain("\x1b[?2031l");
	});

	it("a cell-size reply sets the cell dimensions and is consumed", () => {
		const { term, tui, keys } = setup();
		term.sendInput("\x1b[6;20;10t");
		expect(keys).toEqual([]);
		expect(getCellDimensions()).toEqual({ widthPx: 10, heightPx: 20 });
		setCellDimensions({ widthPx: 9, heightPx: 18 });
		tui.stop();
	});
});
