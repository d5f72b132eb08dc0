import {
	Box,
	CancellableLoader,
	CURSOR_MARKER,
	Input,
	Loader,
	type SelectItem,
	SelectList,
	SettingsList,
	Spacer,
	stripTerminalSequences,
	Text,
	TruncatedText,
	visibleWidth,
} from "@tau/tui";
import { afterEach, describe, expect, it, vi } from "vitest";
import { plain, plainSelectListTheme } from "./helpers/themes.js";

afterEach(() => {
	vi.useRealTimers();
});

describe("Text", () => {
	it("pads lines to the width and honours padding", () => {
		const t = new Text("hello world", 2, 1);
		const lines = t.render(12);
		expect(lines).toEqual(["            ", "  hello     ", "  world     ", "            "]);
		for (const l of lines) expect(visibleWidth(l)).toBe(12);
	});
	it("returns the same array for identical text and renders nothing for blank text", () => {
		const t = new Text("abc", 0, 0);
		const a = t.render(10);
		t.setText("abc");
		expect(t.render(10)).toBe(a);
		t.setText("abd");
		expect(t.render(10)).not.toBe(a);
		expect(new Text("   \n ").render(10)).toEqual([]);
	});
	it("applies the background function to the padded line", () => {
		const t = new Text("x", 1, 0, (s) => `<${s}>`);
		expect(t.render(5)).toEqual(["< x   >"]);
	});
});

describe("TruncatedText and Spacer", () => {
	it("shows only the first line, truncated and padded", () => {
		const t = new TruncatedText("a very long first line\nsecond", 1, 1);
		const lines = t.render(10);
		expect(lines).toHaveLength(3);
		expect(stripTerminalSequences(lines[1]!)).toBe(" a ver... ");
		for (const l of lines) expect(visibleWidth(l)).toBe(10);
	});
	it("renders empty rows", () => {
		const s = new Spacer(2);
		expect(s.render(10)).toEqual(["", ""]);
		s.setLines(0);
		expect(s.render(10)).toEqual([]);
	});
});

describe("Box", () => {
	it("re-renders when the background output changes without invalidate", () => {
		let colour = "R";
		const box = new Box(1, 0, (s) => `${colour}${s}`);
		box.addChild(new Text("hi", 0, 0));
		const first = box.render(6);
		expect(first).toEqual(["R hi   "]);
		expect(box.render(6)).toBe(first);
		colour = "G";
		expect(box.render(6)).toEqual(["G hi   "]);
	});
	it("renders nothing without children", () => {
		expect(new Box().render(10)).toEqual([]);
	});
});

describe("SelectList", () => {
	const items: SelectItem[] = Array.from({ length: 8 }, (_, i) => ({ value: `item${i}`, label: `Item ${i}` }));

	it("wraps around with up and down", () => {
		const list = new SelectList(items, 5, plainSelectListTheme);
		list.handleInput("\x1b[A");
		expect(list.getSelectedIndex()).toBe(7);
		list.handleInput("\x1b[B");
		expect(list.getSelectedIndex()).toBe(0);
	});
	it("shows (i/n) when not all items are visible", () => {
		const list = new SelectList(items, 5, plainSelectListTheme);
		list.handleInput("\x1b[6~");
		const lines = list.render(30);
		expect(lines).toHaveLength(6);
		expect(lines[5]).toBe("  (6/8)");
		expect(lines.some((l) => l.startsWith("→ Item 5"))).toBe(true);
	});
	it("filters by value prefix and reports no match", () => {
		const list = new SelectList(
			[
				{ value: "model", label: "model" },
				{ value: "mcp", label: "mcp" },
				{ value: "help", label: "help" },
			],
			5,
			plainSelectListTheme,
		);
		list.setFilter("M");
		expect(list.getItems().map((i) => i.value)).toEqual(["model", "mcp"]);
		list.setFilter("zzz");
		expect(list.render(30)).toEqual(["  No matching commands"]);
	});
	it("confirms and cancels", () => {
		const list = new SelectList(items, 5, plainSelectListTheme);
		const selected: string[] = [];
		let cancelled = false;
		list.onSelect = (i) => selected.push(i.value);
		list.onCancel = () => {
			cancelled = true;
		};
		list.handleInput("\x1b[B");
		list.handleInput("\r");
		list.handleInput("\x1b");
		expect(selected).toEqual(["item1"]);
		expect(cancelled).toBe(true);
	});
	it("shows descriptions in a second column when wide enough", () => {
		const list = new SelectList(
			[{ value: "a", label: "alpha", description: "first letter" }],
			5,
			plainSelectListTheme,
		);
		expect(list.render(60)[0]).toBe("→ alpha  first letter");
		for (const l of list.render(60)) expect(visibleWidth(l)).toBeLessThanOrEqual(60);
	});
});

describe("SettingsList", () => {
	const theme = { label: plain, value: plain, description: plain, cursor: "> ", hint: plain };
	it("cycles values with Enter and reports changes", () => {
		const changes: string[] = [];
		const list = new SettingsList(
			[
				{
					id: "thinking",
					label: "Thinking",
					currentValue: "low",
					values: ["low", "high"],
					description: "Reasoning effort",
				},
			],
			5,
			theme,
			(id, v) => changes.push(`${id}=${v}`),
			() => {},
		);
		list.handleInput("\r");
		list.handleInput(" ");
		expect(changes).toEqual(["thinking=high", "thinking=low"]);
		const lines = list.render(40);
		expect(lines[0]).toBe("> Thinking  low");
		expect(lines).toContain("  Reasoning effort");
	});
	it("routes input to an open submenu until done", () => {
		let done: ((v?: string) => void) | undefined;
		const changes: string[] = [];
		const list = new SettingsList(
			[
				{
					id: "model",
					label: "Model",
					currentValue: "a",
					submenu: (_cur, d) => {
						done = d;
						return { render: () => ["SUBMENU"], invalidate() {}, handleInput: () => {} };
					},
				},
			],
			5,
			theme,
			(id, v) => changes.push(`${id}=${v}`),
			() => {},
		);
		list.handleInput("\r");
		expect(list.render(20)).toEqual(["SUBMENU"]);
		done?.("b");
		expect(changes).toEqual(["model=b"]);
		expect(list.render(20)[0]).toBe("> Model  b");
	});
	it("filters with search and reports no match", () => {
		const list = new SettingsList(
			[{ id: "a", label: "Alpha", currentValue: "1" }],
			5,
			theme,
			() => {},
			() => {},
			{
				enableSearch: true,
			},
		);
		for (const ch of "zz") list.handleInput(ch);
		expect(list.render(30)).toContain("  No matching settings");
	});
});

describe("Loader", () => {
	it("animates via requestRender and stops its interval on stop()", () => {
		vi.useFakeTimers();
		const tui = { requestRender: vi.fn() };
		const loader = new Loader(tui, plain, plain, "Working");
		expect(loader.render(20)).toEqual(["", " ⠋ Working          "]);
		vi.advanceTimersByTime(80);
		expect(tui.requestRender).toHaveBeenCalledTimes(1);
		expect(loader.render(20)[1]).toContain("⠙ Working");
		loader.stop();
		expect(vi.getTimerCount()).toBe(0);
		vi.advanceTimersByTime(800);
		expect(tui.requestRender).toHaveBeenCalledTimes(1);
	});
	it("hides the spinner with frames: [] and keeps a single frame static", () => {
		vi.useFakeTimers();
		const tui = { requestRender: vi.fn() };
		const hidden = new Loader(tui, plain, plain, "Quiet", { frames: [] });
		expect(hidden.render(10)[1]).toBe(" Quiet    ");
		expect(vi.getTimerCount()).toBe(0);
		const fixed = new Loader(tui, plain, plain, "Static", { frames: ["*"] });
		expect(fixed.render(12)[1]).toBe(" * Static   ");
		expect(vi.getTimerCount()).toBe(0);
	});
	it("CancellableLoader aborts on escape", () => {
		vi.useFakeTimers();
		const loader = new CancellableLoader({ requestRender: () => {} }, plain, plain);
		const onAbort = vi.fn();
		loader.onAbort = onAbort;
		loader.handleInput("\x1b");
		expect(loader.aborted).toBe(true);
		expect(loader.signal.aborted).toBe(true);
		expect(onAbort).toHaveBeenCalledOnce();
		loader.dispose();
		expect(vi.getTimerCount()).toBe(0);
	});
});

describe("Input", () => {
	it("edits, submits and escapes", () => {
		const input = new Input();
		const submitted: string[] = [];
		input.onSubmit = (v) => submitted.push(v);
		for (const ch of "hello world") input.handleInput(ch);
		input.handleInput("\x17"); // ctrl+w
		expect(input.getValue()).toBe("hello ");
		input.handleInput("\x19"); // ctrl+y
		expect(input.getValue()).toBe("hello world");
		input.handleInput("\x01"); // ctrl+a
		input.handleInput("\x1b[3~");
		expect(input.getValue()).toBe("ello world");
		input.handleInput("\x1f"); // undo
		expect(input.getValue()).toBe("hello world");
		input.handleInput("\r");
		expect(submitted).toEqual(["hello world"]);
	});
	it("inserts a paste as one unit without newlines", () => {
		const input = new Input();
		input.handleInput("\x1b[200~a\nb\tc\x1b[201~");
		expect(input.getValue()).toBe("ab    c");
		input.handleInput("\x1f");
		expect(input.getValue()).toBe("");
	});
	it("shows the cursor marker only when focused and scrolls to keep it visible", () => {
		const input = new Input();
		input.setValue("0123456789abcdefghij");
		input.handleInput("\x05"); // end
		expect(input.render(12)[0]).not.toContain(CURSOR_MARKER);
		input.focused = true;
		const line = input.render(12)[0]!;
		expect(line).toContain(CURSOR_MARKER);
		expect(visibleWidth(line)).toBe(12);
		expect(stripTerminalSequences(line)).toBe("> bcdefghij ");
	});
	it("shows a placeholder", () => {
		const input = new Input({ placeholder: "type here", placeholderStyle: (t) => `[${t}]` });
		expect(input.render(20)[0]).toBe("> [t][ype here]     ");
	});
});
