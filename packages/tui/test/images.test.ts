import {
	allocateImageId,
	calculateImageRows,
	encodeITerm2,
	encodeKitty,
	getImageDimensions,
	getPngDimensions,
	Image,
	imageFallback,
	renderImage,
	resetCapabilitiesCache,
	setCapabilities,
	setCapabilityOverrides,
	setImageTranscoder,
	stripTerminalSequences,
	Text,
	TuiMainScreen,
} from "@tau/tui";
import { afterEach, describe, expect, it } from "vitest";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

/** A PNG header claiming `w`×`h` pixels (enough for the dimension reader). */
function pngHeader(w: number, h: number): string {
	const buf = Buffer.alloc(33);
	buf.writeUInt32BE(0x89504e47, 0);
	buf.writeUInt32BE(0x0d0a1a0a, 4);
	buf.writeUInt32BE(13, 8);
	buf.write("IHDR", 12, "ascii");
	buf.writeUInt32BE(w, 16);
	buf.writeUInt32BE(h, 20);
	return buf.toString("base64");
}

function gifHeader(w: number, h: number): string {
	const buf = Buffer.alloc(13);
	buf.write("GIF89a", 0, "ascii");
	buf.writeUInt16LE(w, 6);
	buf.writeUInt16LE(h, 8);
	return buf.toString("base64");
}

const theme = { fallbackColor: (t: string) => t };

afterEach(() => {
	setCapabilityOverrides({});
	setCapabilities(undefined);
	resetCapabilitiesCache();
	setImageTranscoder(undefined);
});

describe("Image", () => {
	it("reads dimensions from base64 PNG and GIF headers, null otherwise; the component assumes 800x600", () => {
		expect(getImageDimensions(pngHeader(320, 200), "image/png")).toEqual({ widthPx: 320, heightPx: 200 });
		expect(getImageDimensions(gifHeader(10, 20), "image/gif")).toEqual({ widthPx: 10, heightPx: 20 });
		expect(getImageDimensions("AAAA", "image/bmp")).toBeNull();
		expect(getPngDimensions("AAAA")).toBeNull();
		setCapabilityOverrides({ images: null, hyperlinks: false });
		expect(new Image("AAAA", "image/bmp", theme).render(80)).toEqual(["[Image: [image/bmp] 800x600]"]);
	});

	it("renderImage scales to the width (up or down) and reports the cells it covers, as pi-tui does", () => {
		setCapabilityOverrides({ images: null });
		expect(renderImage(pngHeader(10, 10), { widthPx: 10, heightPx: 10 })).toBeNull();
		setCapabilityOverrides({ images: "kitty" });
		const data = pngHeader(90, 36);
		const kitty = renderImage(data, { widthPx: 90, heightPx: 36 }, { maxWidthCells: 20, imageId: 5 });
		expect(kitty).toEqual({
			sequence: `\x1b_Ga=T,f=100,q=2,c=20,r=4,i=5;${data}\x1b\\`,
			columns: 20,
			rows: 4,
			imageId: 5,
		});
		setCapabilityOverrides({ images: "iterm2" });
		expect(renderImage(data, { widthPx: 90, heightPx: 36 }, { maxWidthCells: 10, maxHeightCells: 1 })).toEqual({
			sequence: encodeITerm2(data, { width: 5, height: "auto", preserveAspectRatio: true }),
			columns: 5,
			rows: 1,
		});
		expect(calculateImageRows({ widthPx: 90, heightPx: 36 }, 20)).toBe(4);
		expect(calculateImageRows({ widthPx: 90, heightPx: 36 }, 20, { widthPx: 10, heightPx: 20 })).toBe(4);
		const id = allocateImageId();
		expect(Number.isInteger(id) && id >= 1 && id <= 0xffffffff).toBe(true);
	});

	it("renders a Kitty sequence plus rows - 1 blank lines when Kitty is forced", () => {
		setCapabilityOverrides({ images: "kitty" });
		const data = pngHeader(180, 180);
		const lines = new Image(data, "image/png", theme, { imageId: 7 }).render(80);
		// 180px / 9px = 20 columns; 20 * 9 * 180 / 180 / 18 = 10 rows.
		expect(lines).toHaveLength(10);
		expect(lines[0]).toBe(`\x1b_Ga=T,f=100,q=2,C=1,c=20,r=10,i=7;${data}\x1b\\`);
		expect(lines.slice(1).every((l) => l === "")).toBe(true);
	});

	it("falls back to text without a protocol, or for non-PNG data without a transcoder", () => {
		setCapabilityOverrides({ images: null, hyperlinks: false });
		const lines = new Image(pngHeader(64, 32), "image/png", theme).render(80);
		expect(lines).toEqual(["[Image: [image/png] 64x32]"]);
		setCapabilityOverrides({ images: "kitty", hyperlinks: false });
		expect(new Image(gifHeader(10, 10), "image/gif", theme, { filename: "/tmp/a.gif" }).render(80)).toEqual([
			"[Image: /tmp/a.gif [image/gif] 10x10]",
		]);
		setImageTranscoder(() => pngHeader(10, 10));
		expect(new Image(gifHeader(10, 10), "image/gif", theme).render(80)[0]).toContain("\x1b_Ga=T");
	});

	it("renders iTerm2 as blank lines then cursor-up and the inline sequence", () => {
		setCapabilityOverrides({ images: "iterm2" });
		const data = pngHeader(90, 72);
		const lines = new Image(data, "image/png", theme).render(80);
		expect(lines).toHaveLength(4);
		expect(lines[3]).toBe(`\x1b[3A${encodeITerm2(data, { width: 10, height: "auto" })}`);
	});

	it("chunks Kitty data at 4096 characters and truncates the fallback to the width", () => {
		const big = "A".repeat(9000);
		const seq = encodeKitty(big);
		expect(seq.startsWith("\x1b_Ga=T,f=100,q=2,m=1;")).toBe(true);
		expect(seq).toContain("\x1b_Gm=1;");
		expect(seq.endsWith(`\x1b_Gm=0;${"A".repeat(9000 - 8192)}\x1b\\`)).toBe(true);
		setCapabilityOverrides({ images: null, hyperlinks: true });
		const fallback = imageFallback("image/png", { widthPx: 1, heightPx: 2 }, "/tmp/x.png");
		expect(fallback).toContain("\x1b]8;;file:///tmp/x.png\x1b\\");
		expect(stripTerminalSequences(fallback)).toBe("[Image: /tmp/x.png [image/png] 1x2]");
	});
});

describe("Kitty images in the main-screen renderer", () => {
	it("deletes an image whose line left the frame and deletes all known images before a clearing redraw", () => {
		setCapabilityOverrides({ images: "kitty" });
		const term = new VirtualTerminal(80, 20);
		const tui = new TuiMainScreen(term);
		const image = new Image(pngHeader(90, 36), "image/png", theme, { imageId: 42 });
		tui.addChild(new Text("before", 0, 0));
		tui.addChild(image);
		tui.start();
		tui.renderNow();
		expect(term.getRawOutput()).toContain("i=42;");
		term.resize(70, 20);
		term.clearRawOutput();
		tui.renderNow();
		expect(term.getRawOutput()).toContain("\x1b_Ga=d,d=I,i=42,q=2\x1b\\\x1b[2J");
		term.clearRawOutput();
		tui.removeChild(image);
		tui.renderNow();
		expect(term.getRawOutput()).toContain("\x1b_Ga=d,d=I,i=42,q=2\x1b\\");
		term.clearRawOutput();
		tui.renderNow();
		expect(term.getRawOutput()).not.toContain("a=d");
		tui.stop();
	});
});
