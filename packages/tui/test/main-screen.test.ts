import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CURSOR_MARKER, renderFakeCursor, TuiMainScreen } from "@tau/tui";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Lines, nextTick, numbered } from "./helpers/components.js";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

function setup(cols = 40, rows = 10) {
	const term = new VirtualTerminal(cols, rows);
	const tui = new TuiMainScreen(term);
	const content = new Lines();
	tui.addChild(content);
	tui.start();
	return { term, tui, content };
}

const count = (s: string, sub: string) => s.split(sub).length - 1;

afterEach(() => {
	vi.unstubAllEnvs();
});

describe("TuiMainScreen differential rendering", () => {
	it("first render writes all lines without clearing, wrapped in synchronized output", async () => {
		const { term, tui, content } = setup();
		content.set(numbered(5));
		tui.renderNow();
		await term.flush();
		const raw = term.getRawOutput();
		expect(raw).not.toContain("\x1b[2J");
		expect(raw).toContain("\x1b[?2026h");
		expect(raw.lastIndexOf("\x1b[?2026l")).toBeGreaterThan(raw.lastIndexOf("line 5"));
		expect(term.getViewport().slice(0, 5)).toEqual(numbered(5));
		expect(tui.fullRedraws).toBe(1);
		tui.stop();
	});

	it("writes nothing for an unchanged frame", async () => {
		const { term, tui, content } = setup();
		content.set(numbered(5));
		tui.renderNow();
		term.clearRawOutput();
		tui.renderNow();
		expect(term.getRawOutput()).toBe("");
		tui.stop();
	});

	it("rewrites only the changed row", async () => {
		const { term, tui, content } = setup();
		content.set(numbered(10, "row"));
		tui.renderNow();
		term.clearRawOutput();
		const next = numbered(10, "row");
		next[4] = "changed";
		content.set(next);
		tui.renderNow();
		await term.flush();
		const raw = term.getRawOutput();
		expect(count(raw, "\x1b[2K")).toBe(1);
		expect(raw).toContain("changed");
		expect(raw).not.toContain("row 4");
		expect(raw).not.toContain("row 6");
		expect(raw.startsWith("\x1b[?2026h")).toBe(true);
		expect(raw.endsWith("\x1b[?2026l")).toBe(true);
		expect(term.getViewport()).toEqual(next);
		tui.stop();
	});

	it("appending writes only the new lines, scrolling when needed", async () => {
		const { term, tui, content } = setup(40, 5);
		content.set(numbered(4));
		tui.renderNow();
		term.clearRawOutput();
		content.set(numbered(8));
		tui.renderNow();
		await term.flush();
		const raw = term.getRawOutput();
		for (const n of [1, 2, 3, 4]) expect(raw).not.toContain(`line ${n}\x1b`);
		expect(count(raw, "\x1b[2K")).toBe(4);
		for (const n of [5, 6, 7, 8]) expect(raw).toContain(`line ${n}`);
		expect(term.getViewport()).toEqual(["line 4", "line 5", "line 6", "line 7", "line 8"]);
		expect(term.getScrollback()).toEqual(["line 1", "line 2", "line 3"]);
		tui.stop();
	});

	it("shrinking clears the removed rows without a full redraw", async () => {
		const { term, tui, content } = setup();
		content.set(numbered(10));
		tui.renderNow();
		content.set(numbered(6));
		tui.renderNow();
		await term.flush();
		expect(term.getViewport()).toEqual([...numbered(6), "", "", "", ""]);
		expect(tui.fullRedraws).toBe(1);
		tui.stop();
	});

	it("with clearOnShrink a shrink is a full redraw", async () => {
		const { term, tui, content } = setup();
		tui.setClearOnShrink(true);
		content.set(numbered(10));
		tui.renderNow();
		content.set(numbered(6));
		tui.renderNow();
		await term.flush();
		expect(tui.fullRedraws).toBe(2);
		expect(term.getViewport().slice(0, 7)).toEqual([...numbered(6), ""]);
		tui.stop();
	});

	it("a width change is a full redraw that clears screen and scrollback", async () => {
		const { term, tui, content } = setup();
		content.set(numbered(3));
		tui.renderNow();
		term.clearRawOutput();
		term.resize(30, 10);
		tui.renderNow();
		await term.flush();
		expect(term.getRawOutput()).toContain("\x1b[2J\x1b[H\x1b[3J");
		expect(tui.fullRedraws).toBe(2);
		expect(term.getViewport().slice(0, 3)).toEqual(numbered(3));
		tui.stop();
	});

	it("a height change is a full redraw except in Termux", async () => {
		const { term, tui, content } = setup();
		content.set(numbered(3));
		tui.renderNow();
		term.resize(40, 8);
		tui.renderNow();
		expect(tui.fullRedraws).toBe(2);
		tui.stop();

		vi.stubEnv("TERMUX_VERSION", "0.118");
		const t2 = setup();
		t2.content.set(numbered(3));
		t2.tui.renderNow();
		t2.term.resize(40, 8);
		t2.tui.renderNow();
		expect(t2.tui.fullRedraws).toBe(1);
		t2.tui.stop();
	});

	it("a change to a line in scrollback triggers a full redraw", async () => {
		const { term, tui, content } = setup(40, 5);
		content.set(numbered(12));
		tui.renderNow();
		const next = numbered(12);
		next[1] = "edited";
		content.set(next);
		tui.renderNow();
		await term.flush();
		expect(tui.fullRedraws).toBe(2);
		expect(term.getRawOutput()).toContain("\x1b[3J");
		expect(term.getViewport()).toEqual(numbered(12).slice(7));
		tui.stop();
	});

	it("a change inside the viewport of a long transcript touches one row", async () => {
		const { term, tui, content } = setup(40, 5);
		content.set(numbered(50));
		tui.renderNow();
		term.clearRawOutput();
		const next = numbered(50);
		next[49] = "last changed";
		content.set(next);
		tui.renderNow();
		await term.flush();
		expect(count(term.getRawOutput(), "\x1b[2K")).toBe(1);
		expect(term.getViewport()).toEqual([...numbered(49).slice(45), "last changed"]);
		tui.stop();
	});

	it("requestRender(true) forces a clearing full redraw on the next tick", async () => {
		const { term, tui, content } = setup();
		content.set(numbered(3));
		tui.renderNow();
		term.clearRawOutput();
		tui.requestRender(true);
		await nextTick();
		expect(tui.fullRedraws).toBe(2);
		expect(term.getRawOutput()).toContain("\x1b[2J\x1b[H\x1b[3J");
		await term.flush();
		expect(term.getViewport().slice(0, 3)).toEqual(numbered(3));
		tui.stop();
	});

	it("a render() call between frames does not hide a change from the next frame", async () => {
		const { term, tui, content } = setup();
		content.set(numbered(5));
		tui.renderNow();
		const next = numbered(5);
		next[3] = "changed between frames";
		content.set(next);
		tui.render(40);
		tui.renderNow();
		await term.flush();
		expect(term.getViewport().slice(0, 5)).toEqual(next);
		tui.stop();
	});

	it("appends the line reset and strips OSC 133 prefixes", async () => {
		const { term, tui, content } = setup();
		content.set(["\x1b]133;A\x07\x1b]133;B\x07prompt", "\x1b[31mred"]);
		tui.renderNow();
		await term.flush();
		const raw = term.getRawOutput();
		expect(raw).not.toContain("133;");
		expect(raw).toContain("prompt\x1b[0m\x1b]8;;\x07");
		expect(raw).toContain("red\x1b[0m\x1b]8;;\x07");
		expect(term.getCellStyle(1, 0).fg).not.toBe(-1);
		tui.stop();
	});

	it("a line wider than the terminal stops the TUI, writes a crash log and throws", async () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tau-tui-crash-"));
		const term = new VirtualTerminal(20, 5);
		const tui = new TuiMainScreen(term, false, dir);
		const content = new Lines(["x".repeat(25)]);
		tui.addChild(content);
		tui.start();
		expect(() => tui.renderNow()).toThrow(/line 0 is 25 columns wide but the terminal is 20/);
		expect(fs.readFileSync(path.join(dir, "tau-tui-crash.log"), "utf8")).toContain("line 0 has width 25");
		expect(term.started).toBe(false);
	});

	it("TAU_TUI_DEBUG_REDRAW logs the reason of every full redraw", async () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tau-tui-debug-"));
		vi.stubEnv("TAU_TUI_DEBUG_REDRAW", "1");
		const term = new VirtualTerminal(40, 10);
		const tui = new TuiMainScreen(term, false, dir);
		tui.addChild(new Lines(numbered(3)));
		tui.start();
		tui.renderNow();
		term.resize(30, 10);
		tui.renderNow();
		tui.stop();
		const log = fs.readFileSync(path.join(dir, "tau-tui-debug.log"), "utf8");
		expect(log).toContain("full redraw: first render");
		expect(log).toContain("full redraw: terminal width changed (40 -> 30)");
	});

	it("places the hardware cursor at the marker column, hidden unless enabled", async () => {
		const { term, tui, content } = setup();
		content.set(["first", `日本${CURSOR_MARKER}${renderFakeCursor(" ")}`, "after"]);
		tui.setFocus(null);
		tui.renderNow();
		await term.flush();
		expect(term.getCursor()).toMatchObject({ row: 1, col: 4, visible: false });
		expect(term.getCellStyle(1, 4).inverse).toBe(true);

		tui.setShowHardwareCursor(true);
		tui.renderNow();
		await term.flush();
		expect(term.getCursor()).toMatchObject({ row: 1, col: 4, visible: true });
		expect(term.getCellStyle(1, 4).inverse).toBe(false);
		tui.stop();
	});

	it("stop moves below the content and shows the cursor", async () => {
		const { term, tui, content } = setup();
		content.set(numbered(3));
		tui.renderNow();
		tui.stop();
		await term.flush();
		expect(term.getCursor()).toMatchObject({ row: 3, col: 0, visible: true });
		expect(term.isModeSet(2004)).toBe(false);
	});
});
