import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CombinedAutocompleteProvider, SettingsList, stripTerminalSequences, type TuiMouseEvent } from "@tau/tui";
import { describe, expect, it } from "vitest";
import { makeEditor } from "./helpers/editor.js";

/** A left-button event at component-local (x, y); pi-tui's TuiMouseEvent shape. */
function mouse(type: TuiMouseEvent["type"], x: number, y: number, extra: Partial<TuiMouseEvent> = {}): TuiMouseEvent {
	return {
		type,
		button: type === "wheel" || type === "move" ? "none" : "left",
		x,
		y,
		screenX: x,
		screenY: y,
		width: 20,
		height: 10,
		shift: false,
		alt: false,
		ctrl: false,
		...extra,
	};
}

describe("Editor.handleMouse", () => {
	it("a left click on a text row moves the cursor to the clicked cell", () => {
		const { editor, type } = makeEditor();
		editor.focused = true;
		type("first line\nsecond");
		editor.render(20);
		// Row 0 is the top border: row 1 is "first line".
		expect(editor.handleMouse(mouse("click", 3, 1))).toEqual({ handled: true, focus: true });
		expect(editor.getCursor()).toEqual({ line: 0, col: 3 });
		// Past the end of a line: the cursor goes to its end.
		editor.handleMouse(mouse("click", 15, 2));
		expect(editor.getCursor()).toEqual({ line: 1, col: "second".length });
		type("!");
		expect(editor.getText()).toBe("first line\nsecond!");
	});

	it("on a wrapped row the click past its end stays on that row", () => {
		const { editor, type } = makeEditor();
		// Width 20 leaves 19 columns of text: the 30 letters wrap after the 19th.
		type("abcdefghijklmnopqrstuvwxyz0123");
		editor.render(20);
		editor.handleMouse(mouse("click", 19, 1));
		expect(editor.getCursor().col).toBe(18);
		editor.handleMouse(mouse("click", 2, 2));
		expect(editor.getCursor().col).toBe(21);
	});

	it("leaves press, drag and release to the renderer's text selection; borders only take focus", () => {
		const { editor, type } = makeEditor();
		type("hello");
		editor.render(20);
		expect(editor.handleMouse(mouse("press", 1, 1))).toBeUndefined();
		expect(editor.handleMouse(mouse("drag", 2, 1))).toBeUndefined();
		expect(editor.handleMouse(mouse("release", 2, 1))).toBeUndefined();
		expect(editor.handleMouse(mouse("click", 1, 1, { button: "right" }))).toBeUndefined();
		expect(editor.getCursor().col).toBe(5);
		expect(editor.handleMouse(mouse("click", 1, 0))).toEqual({ handled: true, focus: true });
		expect(editor.handleMouse(mouse("click", 1, 2))).toEqual({ handled: true, focus: true });
		expect(editor.getCursor().col).toBe(5);
	});

	it("clicks in the open completion menu select its items", async () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tau-mouse-"));
		const { editor, type } = makeEditor();
		editor.setAutocompleteProvider(
			new CombinedAutocompleteProvider([{ name: "help" }, { name: "hello" }, { name: "history" }], dir),
		);
		type("/h");
		await new Promise<void>((resolve) => setImmediate(resolve));
		const lines = editor.render(40).map(stripTerminalSequences);
		const row = lines.findIndex((l) => l.includes("history"));
		expect(row).toBeGreaterThan(2);
		expect(editor.handleMouse(mouse("press", 4, row, { width: 40 }))).toMatchObject({ focus: true });
		editor.handleMouse(mouse("click", 4, row, { width: 40 }));
		expect(editor.render(40).map(stripTerminalSequences)[row]).toContain("→ history");
		expect(editor.getText()).toBe("/h");
	});
});

describe("SettingsList.handleMouse", () => {
	const plain = (t: string) => t;
	const theme = { label: plain, value: plain, description: plain, cursor: "> ", hint: plain };
	const items = () => [
		{ id: "a", label: "Alpha", currentValue: "on", values: ["on", "off"] },
		{ id: "b", label: "Beta", currentValue: "1", values: ["1", "2", "3"] },
		{ id: "c", label: "Gamma", currentValue: "x", values: ["x", "y"] },
	];
	/** A list of three settings (five rows visible) that records the changes it reports. */
	const makeList = (options: { enableSearch?: boolean } = {}) => {
		const changes: string[] = [];
		const onChange = (id: string, v: string) => changes.push(`${id}=${v}`);
		return { list: new SettingsList(items(), 5, theme, onChange, () => {}, options), changes };
	};

	it("a click on an item selects it and changes it as Enter would", () => {
		const { list, changes } = makeList();
		list.render(30);
		expect(list.handleMouse(mouse("press", 4, 1))).toEqual({ handled: true, focus: true });
		expect(list.render(30)[1]).toBe("> Beta   1");
		expect(list.handleMouse(mouse("click", 4, 1))).toEqual({ handled: true });
		expect(changes).toEqual(["b=2"]);
		// Below the items (the hint lines) nothing happens.
		expect(list.handleMouse(mouse("press", 4, 4))).toBeUndefined();
		expect(changes).toEqual(["b=2"]);
	});

	it("the wheel moves the selection within the list; hover changes nothing", () => {
		const { list } = makeList();
		expect(list.handleMouse(mouse("wheel", 0, 0, { wheelDelta: -3 }))).toEqual({ handled: true, render: false });
		expect(list.handleMouse(mouse("wheel", 0, 0, { wheelDelta: 3 }))).toEqual({ handled: true, render: true });
		expect(list.render(30)[1]).toBe("> Beta   1");
		expect(list.handleMouse(mouse("move", 0, 2))).toBeUndefined();
		expect(list.render(30)[1]).toBe("> Beta   1");
	});

	it("with search the first row belongs to the search input and items start two rows down", () => {
		const { list, changes } = makeList({ enableSearch: true });
		expect(list.handleMouse(mouse("click", 1, 1))).toBeUndefined();
		expect(list.handleMouse(mouse("press", 1, 0))).toMatchObject({ focus: true });
		list.handleMouse(mouse("press", 4, 4));
		list.handleMouse(mouse("click", 4, 4));
		expect(changes).toEqual(["c=y"]);
	});

	it("an open submenu receives the events", () => {
		const seen: number[] = [];
		const list = new SettingsList(
			[
				{
					id: "m",
					label: "Model",
					currentValue: "a",
					submenu: () => ({
						render: () => ["SUB"],
						invalidate() {},
						handleMouse: (e: TuiMouseEvent) => {
							seen.push(e.y);
							return { handled: true };
						},
					}),
				},
			],
			5,
			theme,
			() => {},
			() => {},
		);
		list.handleInput("\r");
		expect(list.handleMouse(mouse("click", 0, 7))).toEqual({ handled: true, focus: true });
		expect(seen).toEqual([7]);
	});
});
