import { type Component, type Focusable, Input, TuiMainScreen, visibleWidth } from "@tau/tui";
import { describe, expect, it } from "vitest";
import { Lines } from "./helpers/components.js";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

class Box implements Component, Focusable {
	focused = false;
	inputs: string[] = [];
	constructor(
		private readonly label: string,
		private readonly height = 1,
	) {}
	render(width: number): readonly string[] {
		return Array.from({ length: this.height }, () => this.label.repeat(width).slice(0, width));
	}
	handleInput(data: string): void {
		this.inputs.push(data);
	}
	invalidate(): void {}
}

function setup(cols = 40, rows = 10) {
	const term = new VirtualTerminal(cols, rows);
	const tui = new TuiMainScreen(term);
	const base = new Lines(Array.from({ length: rows }, () => ".".repeat(cols)));
	tui.addChild(base);
	const editor = new Box("e");
	tui.setFocus(editor);
	tui.start();
	return { term, tui, base, editor };
}

describe("overlay layout", () => {
	it("centres by default with width min(80, W)", async () => {
		const { term, tui } = setup(100, 10);
		const handle = tui.showOverlay(new Box("X", 2));
		tui.renderNow();
		expect(handle.getBounds()).toEqual({ row: 4, col: 10, width: 80, height: 2 });
		await term.flush();
		const vp = term.getViewport();
		expect(vp[4]).toBe(`${".".repeat(10)}${"X".repeat(80)}${".".repeat(10)}`);
		expect(vp[3]).toBe(".".repeat(100));
		tui.stop();
		// Narrower than 80 columns: the overlay takes the full width.
		const narrow = setup(50, 9);
		const full = narrow.tui.showOverlay(new Box("N", 3));
		narrow.tui.renderNow();
		expect(full.getBounds()).toEqual({ row: 3, col: 0, width: 50, height: 3 });
		narrow.tui.stop();
	});

	it("a focused input inside an overlay draws its cursor in reverse video; no marker reaches the terminal", async () => {
		const { term, tui } = setup(40, 10);
		const input = new Input({ prompt: "> " });
		input.setValue("abc");
		tui.showOverlay(input, { width: 20 });
		tui.setFocus(input);
		tui.renderNow();
		await term.flush();
		const raw = term.getRawOutput();
		expect(raw).not.toContain("\x1b_pi:");
		const row = term.getViewport().findIndex((l) => l.includes("> abc"));
		const col = term.getViewport()[row]!.indexOf("> abc");
		expect(term.getCellStyle(row, col + 2).inverse).toBe(true);
		expect(term.getCellStyle(row, col + 3).inverse).toBe(false);
		expect(term.getCellStyle(row, col - 1).inverse).toBe(false);
		tui.stop();
	});

	it("resolves percentages, margins and anchors, and never leaves the screen", () => {
		const { tui } = setup(40, 10);
		const pct = tui.showOverlay(new Box("P"), { width: "50%", row: "100%", col: "50%" });
		const anchored = tui.showOverlay(new Box("A", 2), { width: 10, anchor: "bottom-right", margin: 1 });
		const off = tui.showOverlay(new Box("O", 3), { width: 10, row: 100, col: -5 });
		const topCenter = tui.showOverlay(new Box("T"), { width: 10, anchor: "top-center", offsetY: 2 });
		tui.renderNow();
		expect(pct.getBounds()).toEqual({ row: 9, col: 10, width: 20, height: 1 });
		expect(anchored.getBounds()).toEqual({ row: 7, col: 29, width: 10, height: 2 });
		expect(off.getBounds()).toEqual({ row: 7, col: 0, width: 10, height: 3 });
		expect(topCenter.getBounds()).toEqual({ row: 2, col: 15, width: 10, height: 1 });
		tui.stop();
	});

	it("composites over CJK text without breaking the width", async () => {
		const { term, tui, base } = setup(20, 5);
		base.set(["日本語日本語日本語日本", "", "", "", ""]);
		tui.showOverlay(new Box("#"), { width: 4, row: 0, col: 3 });
		tui.renderNow();
		await term.flush();
		const row = term.getViewport()[0]!;
		expect(row.startsWith("日 ####")).toBe(true);
		expect(visibleWidth(row)).toBeLessThanOrEqual(20);
		expect(row).toBe("日 #### 本語日本語日");
		tui.stop();
	});
});

describe("overlay focus", () => {
	it("showing focuses; hide() restores the previous focus; hiding the top of two focuses the other", () => {
		const { tui, editor } = setup();
		const a = new Box("a");
		const b = new Box("b");
		const ha = tui.showOverlay(a);
		expect(a.focused).toBe(true);
		expect(editor.focused).toBe(false);
		const hb = tui.showOverlay(b);
		expect(b.focused).toBe(true);
		hb.hide();
		expect(a.focused).toBe(true);
		ha.hide();
		expect(editor.focused).toBe(true);
		tui.stop();
	});

	it("a nonCapturing overlay never takes focus", () => {
		const { term, tui, editor } = setup();
		const overlay = new Box("n");
		tui.showOverlay(overlay, { nonCapturing: true });
		expect(editor.focused).toBe(true);
		term.sendInput("k");
		expect(editor.inputs).toEqual(["k"]);
		expect(overlay.inputs).toEqual([]);
		tui.stop();
	});

	it("an overlay whose visible() returns false stops receiving input", () => {
		const { term, tui, editor } = setup();
		let visible = true;
		const overlay = new Box("v");
		tui.showOverlay(overlay, { visible: () => visible });
		term.sendInput("1");
		visible = false;
		term.sendInput("2");
		expect(overlay.inputs).toEqual(["1"]);
		expect(editor.inputs).toEqual(["2"]);
		expect(tui.hasOverlay()).toBe(false);
		tui.stop();
	});

	it("focus lent to another component returns to the still-visible overlay", () => {
		const { term, tui } = setup();
		const overlay = new Box("o");
		tui.showOverlay(overlay);
		const dialog = new Box("d");
		tui.setFocus(dialog);
		term.sendInput("x");
		expect(dialog.inputs).toEqual(["x"]);
		tui.setFocus(null);
		expect(overlay.focused).toBe(true);
		term.sendInput("y");
		expect(overlay.inputs).toEqual(["y"]);
		tui.stop();
	});

	it("setHidden and focus()/unfocus() move focus as specified", () => {
		const { tui, editor } = setup();
		const a = new Box("a");
		const handle = tui.showOverlay(a);
		handle.setHidden(true);
		expect(editor.focused).toBe(true);
		expect(handle.isHidden()).toBe(true);
		handle.setHidden(false);
		expect(a.focused).toBe(true);
		handle.unfocus();
		expect(editor.focused).toBe(true);
		handle.focus();
		expect(handle.isFocused()).toBe(true);
		handle.unfocus({ target: null });
		expect(a.focused).toBe(false);
		expect(editor.focused).toBe(false);
		tui.stop();
	});

	it("hides the overlay rows from the terminal after hide()", async () => {
		const { term, tui } = setup(20, 4);
		const handle = tui.showOverlay(new Box("Z"), { width: 5, row: 1, col: 0 });
		tui.renderNow();
		await term.flush();
		expect(term.getViewport()[1]).toBe(`ZZZZZ${".".repeat(15)}`);
		handle.hide();
		tui.renderNow();
		await term.flush();
		expect(term.getViewport()[1]).toBe(".".repeat(20));
		tui.stop();
	});
});

describe("overlays over images", () => {
	it("strips a Kitty image placement the overlay covers, for that frame only", async () => {
		const { term, tui, base } = setup(40, 6);
		const image = "\x1b_Ga=T,f=100,q=2,C=1,c=10,r=3,i=5;AAAA\x1b\\";
		base.set(["top", image, "", "", "bottom", ""]);
		tui.renderNow();
		expect(term.getRawOutput()).toContain("i=5;AAAA");
		term.clearRawOutput();
		const handle = tui.showOverlay(new Box("O"), { width: 5, row: 2, col: 2 });
		tui.renderNow();
		expect(term.getRawOutput()).not.toContain("i=5;AAAA");
		handle.hide();
		term.clearRawOutput();
		tui.renderNow();
		expect(term.getRawOutput()).toContain("i=5;AAAA");
		tui.stop();
	});
});
