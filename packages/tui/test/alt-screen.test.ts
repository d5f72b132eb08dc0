import {
	type Component,
	Editor,
	isViewportTUI,
	MIN_RENDER_INTERVAL_MS,
	ScrollView,
	type ScrollViewOptions,
	setCapabilityOverrides,
	TuiAltScreen,
	VStack,
} from "@tau/tui";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Lines, nextTick, numbered } from "./helpers/components.js";
import { editorTheme } from "./helpers/editor.js";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

beforeEach(() => {
	vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
	vi.useRealTimers();
	vi.unstubAllEnvs();
});

/** Waits for xterm (whose write callbacks use the faked timers) to process every write. */
async function settle(term: VirtualTerminal): Promise<void> {
	let done = false;
	const flushed = term.flush().then(() => {
		done = true;
	});
	for (let i = 0; i < 1000 && !done; i++) await vi.advanceTimersByTimeAsync(0);
	await flushed;
}

/** Runs pending ticks and the frame timer, then lets xterm catch up. */
async function frame(term: VirtualTerminal): Promise<void> {
	await nextTick();
	await vi.advanceTimersByTimeAsync(MIN_RENDER_INTERVAL_MS);
	await settle(term);
}

function setup(cols = 40, rows = 10, lines = numbered(30)) {
	const term = new VirtualTerminal(cols, rows);
	const tui = new TuiAltScreen(term);
	const content = new Lines(lines);
	tui.addChild(content);
	tui.start();
	return { term, tui, content };
}

/** A started screen whose layout is a short inner scroll view above the primary one. */
function startNestedScrollViews(innerOptions: ScrollViewOptions) {
	const term = new VirtualTerminal(40, 10);
	const tui = new TuiAltScreen(term);
	const inner = new ScrollView(new Lines(numbered(8, "inner")), innerOptions);
	const outer = new ScrollView(new Lines(numbered(20, "outer")), { follow: "end", primary: true });
	tui.setLayoutRoot(
		new VStack([
			{ component: inner, basis: 5, shrink: 0 },
			{ component: outer, basis: 0, grow: 1 },
		]),
	);
	tui.start();
	return { term, tui };
}

const sgrMouse = (b: number, x: number, y: number, release = false) =>
	`\x1b[<${b};${x + 1};${y + 1}${release ? "m" : "M"}`;

describe("TuiAltScreen lifecycle", () => {
	it("start enters the alternate screen with autowrap off and all-motion mouse tracking", async () => {
		const { term, tui } = setup();
		await frame(term);
		expect(term.getRawOutput()).toContain(
			"\x1b[?1049h\x1b[?7l\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1004h\x1b[?1006h",
		);
		expect(term.isAltScreenActive()).toBe(true);
		expect(isViewportTUI(tui)).toBe(true);
		tui.stop();
	});

	it("inside tmux uses button-motion tracking only", async () => {
		vi.stubEnv("TMUX", "/tmp/tmux-1/default,1,0");
		const { term, tui } = setup();
		expect(term.getRawOutput()).toContain("\x1b[?1000h\x1b[?1002h\x1b[?1004h\x1b[?1006h");
		expect(term.getRawOutput()).not.toContain("\x1b[?1003h");
		tui.stop();
	});

	it("stop leaves the whole document in the main screen scrollback", async () => {
		const { term, tui } = setup(40, 10, numbered(15));
		await frame(term);
		tui.stop();
		await settle(term);
		expect(term.isAltScreenActive()).toBe(false);
		const all = [...term.getScrollback(), ...term.getViewport()].filter((l) => l !== "");
		expect(all).toEqual(numbered(15));
		expect(term.isModeSet(1006)).toBe(false);
		expect(term.getCursor().visible).toBe(true);
	});

	it("preserveScreen leaves the alt screen without printing", async () => {
		const { term, tui } = setup(40, 10, numbered(3));
		await frame(term);
		term.clearRawOutput();
		tui.stop({ preserveScreen: true });
		await settle(term);
		expect(term.isAltScreenActive()).toBe(false);
		expect(term.getRawOutput()).not.toContain("line 1");
		expect(term.getRawOutput()).toContain("\x1b[?2026h\x1b[?1049l\x1b[?25h\x1b[?2026l");
	});
});

describe("TuiAltScreen viewport", () => {
	it("streaming appends keep the view at the end", async () => {
		const { term, tui, content } = setup(40, 5, numbered(8));
		await frame(term);
		expect(term.getViewport()).toEqual(numbered(8).slice(3));
		content.set(numbered(12));
		tui.requestRender();
		await frame(term);
		expect(term.getViewport()).toEqual(numbered(12).slice(7));
		tui.stop();
	});

	it("after PageUp the view stays put while content grows, shows the indicator; Ctrl+End resumes", async () => {
		const { term, tui, content } = setup(40, 10, numbered(30));
		await frame(term);
		term.sendInput("\x1b[5~");
		await frame(term);
		// Page = viewport height - 4 = 6 lines up from the end (rows 21..30 -> 15..24).
		expect(term.getViewport()[0]).toBe("line 15");
		content.set(numbered(40));
		tui.requestRender();
		await frame(term);
		expect(term.getViewport()[0]).toBe("line 15");
		expect(term.getViewport()[9]).toContain("Jump to latest");
		term.sendInput("\x1b[1;5F"); // ctrl+end
		await frame(term);
		expect(term.getViewport()[9]).toBe("line 40");
		content.set(numbered(41));
		tui.requestRender();
		await frame(term);
		expect(term.getViewport()[9]).toBe("line 41");
		tui.stop();
	});

	it("scroll-only frames do not call component render()", async () => {
		const { term, tui, content } = setup(40, 10, numbered(30));
		await frame(term);
		const renders = content.renders;
		term.sendInput("\x1b[5~");
		await frame(term);
		expect(term.getViewport()[0]).toBe("line 15");
		expect(content.renders).toBe(renders);
		tui.stop();
	});

	it("wheel scrolls one line, five with Alt", async () => {
		const { term, tui } = setup(40, 10, numbered(40));
		await frame(term);
		term.sendInput(sgrMouse(64, 1, 1));
		await frame(term);
		expect(term.getViewport()[0]).toBe("line 30");
		term.sendInput(sgrMouse(64 | 8, 1, 1));
		await frame(term);
		expect(term.getViewport()[0]).toBe("line 25");
		term.sendInput(sgrMouse(65, 1, 1));
		await frame(term);
		expect(term.getViewport()[0]).toBe("line 26");
		tui.stop();
	});

	it("wheel over a nested scroll view scrolls it first and chains the remainder", async () => {
		const { term, tui } = startNestedScrollViews({ follow: "end" });
		await frame(term);
		expect(term.getViewport()[0]).toBe("inner 4");
		term.sendInput(sgrMouse(64 | 8, 2, 2)); // alt: 5 lines up over the inner view
		await frame(term);
		// The inner view could use 3 of the 5 lines; the other 2 chain to the primary view.
		expect(term.getViewport()[0]).toBe("inner 1");
		expect(term.getViewport()[5]).toBe("outer 14");
		tui.stop();
	});

	it("PageUp scrolls by viewport height - 4", async () => {
		const { term, tui } = setup(40, 12, numbered(50));
		await frame(term);
		expect(term.getViewport()[0]).toBe("line 39");
		term.sendInput("\x1b[5~");
		await frame(term);
		expect(term.getViewport()[0]).toBe("line 31");
		tui.stop();
	});
});

describe("TuiAltScreen selection and search", () => {
	it("drag-select copies via OSC 52 and flashes Copied!", async () => {
		const { term, tui } = setup(40, 5, ["alpha beta", "gamma delta", "", "", ""]);
		await frame(term);
		term.sendInput(sgrMouse(0, 6, 0));
		term.sendInput(sgrMouse(32, 4, 1));
		term.sendInput(sgrMouse(0, 4, 1, true));
		await frame(term);
		const expected = Buffer.from("beta\ngamma", "utf8").toString("base64");
		expect(term.getRawOutput()).toContain(`\x1b]52;c;${expected}\x07`);
		expect(term.getViewport()[0]).toContain("Copied!");
		expect(term.getCellStyle(1, 2).inverse).toBe(true);
		await vi.advanceTimersByTimeAsync(1000);
		await frame(term);
		expect(term.getViewport()[0]).not.toContain("Copied!");
		tui.stop();
	});

	it("double click selects a path-like word; triple click selects the line", async () => {
		const { term, tui } = setup(60, 5, ["open src/tui/main-screen.ts now", "", "", "", ""]);
		await frame(term);
		const click = (x: number) => {
			term.sendInput(sgrMouse(0, x, 0));
			term.sendInput(sgrMouse(0, x, 0, true));
		};
		click(10);
		click(10);
		await frame(term);
		expect(term.getRawOutput()).toContain(
			`\x1b]52;c;${Buffer.from("src/tui/main-screen.ts").toString("base64")}\x07`,
		);
		click(10);
		await frame(term);
		expect(term.getRawOutput()).toContain(
			`\x1b]52;c;${Buffer.from("open src/tui/main-screen.ts now").toString("base64")}\x07`,
		);
		tui.stop();
	});

	it("search finds a case-insensitive match spanning lines, shows 1/3, Enter moves on, Escape closes", async () => {
		const lines = ["Hello", "world here", "filler", "hello world", "more", "HELLO", "WORLD", "end", "x", "y"];
		const { term, tui } = setup(60, 12, lines);
		await frame(term);
		term.sendInput("\x1b[102;6u"); // ctrl+shift+f
		await frame(term);
		for (const ch of "hello world") term.sendInput(ch);
		await frame(term);
		const panel = term.getViewport().join("\n");
		expect(panel).toContain("1/3");
		expect(term.getCellStyle(0, 0).inverse).toBe(true);
		term.sendInput("\r");
		await frame(term);
		expect(term.getViewport().join("\n")).toContain("2/3");
		expect(term.getCellStyle(3, 0).inverse).toBe(true);
		term.sendInput("\x1b");
		await nextTick();
		await vi.advanceTimersByTimeAsync(20);
		await frame(term);
		expect(term.getViewport().join("\n")).not.toContain("2/3");
		expect(tui.hasOverlay()).toBe(false);
		tui.stop();
	});

	it("a focused component capturing viewport input receives PageDown", async () => {
		const { term, tui } = setup(40, 10, numbered(30));
		const keys: string[] = [];
		const capturing: Component = {
			capturesViewportInput: true,
			render: () => [],
			invalidate() {},
			handleInput: (d) => keys.push(d),
		};
		tui.setFocus(capturing);
		await frame(term);
		term.sendInput("\x1b[5~");
		await frame(term);
		expect(keys).toEqual(["\x1b[5~"]);
		expect(term.getViewport()[0]).toBe("line 21");
		tui.stop();
	});

	it("search navigation buttons are clickable", async () => {
		const lines = ["match one", "x", "match two", "y", "match three"];
		const { term, tui } = setup(80, 12, lines);
		await frame(term);
		term.sendInput("\x1b[102;6u");
		for (const ch of "match") term.sendInput(ch);
		await frame(term);
		const statusRow = term.getViewport().findIndex((l) => l.includes("1/3"));
		expect(statusRow).toBeGreaterThanOrEqual(0);
		const nextCol = term.getViewport()[statusRow]!.indexOf("↓");
		term.sendInput(sgrMouse(0, nextCol, statusRow));
		term.sendInput(sgrMouse(0, nextCol, statusRow, true));
		await frame(term);
		expect(term.getViewport().join("\n")).toContain("2/3");
		// The search input's fake cursor is resolved like any other: its APC markers never reach the terminal.
		expect(term.getRawOutput()).not.toContain("\x1b_pi:");
		tui.stop();
	});
});

describe("TuiAltScreen options", () => {
	it("a click on an OSC 8 link opens it; copyOnSelect false does not copy", async () => {
		const opened: string[] = [];
		const term = new VirtualTerminal(40, 5);
		const tui = new TuiAltScreen(term, false, undefined, { openUrl: (u) => opened.push(u), copyOnSelect: false });
		tui.addChild(new Lines(["see \x1b]8;;https://x.test\x1b\\docs\x1b]8;;\x1b\\ here", "plain text"]));
		tui.start();
		await frame(term);
		term.sendInput(sgrMouse(0, 5, 0));
		term.sendInput(sgrMouse(0, 5, 0, true));
		expect(opened).toEqual(["https://x.test"]);
		term.sendInput(sgrMouse(0, 0, 1));
		term.sendInput(sgrMouse(32, 4, 1));
		term.sendInput(sgrMouse(0, 4, 1, true));
		await frame(term);
		expect(tui.hasActiveSelection()).toBe(true);
		expect(term.getRawOutput()).not.toContain("\x1b]52;");
		tui.stop();
	});

	it("overscroll: contain keeps unused wheel delta inside the view", async () => {
		const { term, tui } = startNestedScrollViews({ follow: "end", overscroll: "contain" });
		await frame(term);
		term.sendInput(sgrMouse(64 | 8, 2, 2));
		await frame(term);
		expect(term.getViewport()[0]).toBe("inner 1");
		expect(term.getViewport()[5]).toBe("outer 16");
		tui.stop();
	});
});

describe("TuiAltScreen search buttons", () => {
	it("styles the navigation buttons and marks the hovered one", async () => {
		const term = new VirtualTerminal(80, 10);
		const tui = new TuiAltScreen(term, false, undefined, {
			searchNavigationButtonStyle: (t, hovered) => (hovered ? `<${t}>` : t),
		});
		tui.addChild(new Lines(["one", "two"]));
		tui.start();
		await frame(term);
		term.sendInput("\x1b[102;6u");
		await frame(term);
		const row = term.getViewport().findIndex((l) => l.includes("↓ Enter"));
		const col = term.getViewport()[row]!.indexOf("↓");
		term.sendInput(sgrMouse(35, col, row));
		await frame(term);
		expect(term.getViewport()[row]).toContain("<↓ Enter>");
		expect(term.getViewport()[row]).toContain("↑ Shift+Enter");
		tui.stop();
	});
});

describe("TuiAltScreen scrollbar and prompts", () => {
	it("dragging the scrollbar thumb scrolls the view; a track press jumps", async () => {
		const term = new VirtualTerminal(40, 10);
		const tui = new TuiAltScreen(term);
		const view = new ScrollView(new Lines(numbered(100)), { follow: "end", primary: true, scrollbar: "always" });
		tui.setLayoutRoot(view);
		tui.start();
		await frame(term);
		expect(term.getViewport()[9]).toMatch(/^line 100 +┃$/);
		term.sendInput(sgrMouse(0, 39, 0)); // track press at the top jumps there
		term.sendInput(sgrMouse(0, 39, 0, true));
		await frame(term);
		expect(term.getViewport()[0]).toMatch(/^line 1 +┃$/);
		term.sendInput(sgrMouse(0, 39, 0)); // grab the thumb and drag it to the bottom
		term.sendInput(sgrMouse(32, 39, 9));
		term.sendInput(sgrMouse(0, 39, 9, true));
		await frame(term);
		expect(term.getViewport()[9]).toMatch(/^line 100/);
		tui.stop();
	});

	it("previous/next prompt keys jump between OSC 133;A lines", async () => {
		const lines = numbered(40).map((l, i) => (i % 10 === 0 ? `\x1b]133;A\x07prompt ${i}` : l));
		const { term, tui } = setup(40, 5, lines);
		await frame(term);
		term.sendInput("\x1b[1;5A"); // ctrl+up
		await frame(term);
		expect(term.getViewport()[0]).toBe("prompt 30");
		term.sendInput("\x1b[1;5A");
		await frame(term);
		expect(term.getViewport()[0]).toBe("prompt 20");
		term.sendInput("\x1b[1;5B"); // ctrl+down
		await frame(term);
		expect(term.getViewport()[0]).toBe("prompt 30");
		tui.stop();
	});
});

describe("TuiAltScreen images", () => {
	it("re-places images after text when the view scrolls, deleting old placements", async () => {
		setCapabilityOverrides({ images: "kitty" });
		const image = "\x1b_Ga=T,f=100,q=2,C=1,c=4,r=2,i=9;AAAA\x1b\\";
		const { term, tui } = setup(40, 6, [...numbered(8), image, "", "after"]);
		await frame(term);
		const first = term.getRawOutput();
		expect(first).toContain("i=9;AAAA");
		term.clearRawOutput();
		term.sendInput("\x1b[<64;1;1M"); // wheel up one line
		await frame(term);
		const raw = term.getRawOutput();
		expect(raw).toContain("\x1b_Ga=d,d=a,q=2\x1b\\");
		expect(raw.lastIndexOf("i=9;AAAA")).toBeGreaterThan(raw.lastIndexOf("\x1b[2K"));
		setCapabilityOverrides({});
		tui.stop();
	});
});

describe("TuiAltScreen clicks", () => {
	it("press and release on one cell of the editor places its cursor there; a drag selects instead", async () => {
		const term = new VirtualTerminal(40, 10);
		const tui = new TuiAltScreen(term);
		const editor = new Editor(tui, editorTheme);
		editor.setText("hello world");
		tui.setLayoutRoot(
			new VStack([
				{ component: new ScrollView(new Lines(numbered(30)), { follow: "end", primary: true }), basis: 0, grow: 1 },
				{ component: editor, basis: "auto" },
			]),
		);
		tui.setFocus(editor);
		tui.start();
		await frame(term);
		const row = term.getViewport().findIndex((l) => l.startsWith("hello world"));
		expect(row).toBeGreaterThan(0);
		term.sendInput(sgrMouse(0, 4, row));
		term.sendInput(sgrMouse(0, 4, row, true));
		await frame(term);
		expect(editor.getCursor()).toEqual({ line: 0, col: 4 });
		term.sendInput(sgrMouse(0, 1, row));
		term.sendInput(sgrMouse(32, 3, row));
		term.sendInput(sgrMouse(0, 3, row, true));
		await frame(term);
		expect(editor.getCursor()).toEqual({ line: 0, col: 4 });
		expect(tui.hasActiveSelection()).toBe(true);
		tui.stop();
	});
});
