import { getKeybindings } from "../keys/keybindings.js";
import { matchesKey } from "../keys/match-key.js";
import { fuzzyFilter } from "../text/fuzzy.js";
import { padToWidth, truncateToWidth } from "../text/truncate.js";
import { visibleWidth } from "../text/width.js";
import { wrapTextWithAnsi } from "../text/wrap.js";
import type { Component, Focusable, TuiMouseEvent, TuiMouseEventResult } from "../tui/component.js";
import { Input } from "./input.js";

/** One row of a `SettingsList`: its label, current value and the values (or submenu) to choose from. */
export interface SettingItem {
	id: string;
	label: string;
	description?: string;
	currentValue: string;
	values?: string[];
	/** Opens a nested component; it calls `done` to close (with the chosen value, if any). */
	submenu?: (currentValue: string, done: (value?: string, options?: { navigateTo?: string }) => void) => Component;
}

/** Colours of `SettingsList`: labels, values, descriptions, the cursor and hints. */
export interface SettingsListTheme {
	label: (text: string, selected: boolean) => string;
	value: (text: string, selected: boolean) => string;
	description: (text: string) => string;
	cursor: string;
	hint: (text: string) => string;
}

const MAX_LABEL_WIDTH = 36;

/** A list of settings whose values cycle with Enter/Space or open a submenu. */
export class SettingsList implements Component, Focusable {
	readonly capturesViewportInput = true;
	private selected = 0;
	/** The item under a left press: the click that follows acts on it. */
	private pressedIndex: number | undefined;
	private submenu: Component | undefined;
	private readonly search: Input | undefined;
	private _focused = false;

	constructor(
		private items: SettingItem[],
		private readonly maxVisible: number,
		private readonly theme: SettingsListTheme,
		private readonly onChange: (id: string, value: string) => void,
		private readonly onCancel: () => void,
		options: { enableSearch?: boolean } = {},
	) {
		if (options.enableSearch) this.search = new Input({ prompt: "Search: " });
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		if (this.search) this.search.focused = value;
	}

	private visibleItems(): SettingItem[] {
		const query = this.search?.getValue() ?? "";
		return query ? fuzzyFilter(this.items, query, (i) => i.label) : this.items;
	}

	updateValue(id: string, value: string): void {
		const item = this.items.find((i) => i.id === id);
		if (item) item.currentValue = value;
	}

	selectItem(id: string): void {
		const index = this.visibleItems().findIndex((i) => i.id === id);
		if (index >= 0) this.selected = index;
	}

	invalidate(): void {
		this.submenu?.invalidate();
	}

	handleInput(data: string): void {
		if (this.submenu) {
			this.submenu.handleInput?.(data);
			return;
		}
		const kb = getKeybindings();
		const items = this.visibleItems();
		if (kb.matches(data, "tui.select.up")) {
			if (items.length > 0) this.selected = this.selected === 0 ? items.length - 1 : this.selected - 1;
			return;
		}
		if (kb.matches(data, "tui.select.down")) {
			if (items.length > 0) this.selected = this.selected === items.length - 1 ? 0 : this.selected + 1;
			return;
		}
		if (kb.matches(data, "tui.select.cancel")) {
			this.onCancel();
			return;
		}
		const item = items[this.selected];
		if (item && (kb.matches(data, "tui.select.confirm") || matchesKey(data, "space"))) {
			this.activate(item);
			return;
		}
		if (this.search) {
			this.search.handleInput(data);
			this.selected = 0;
		}
	}

	/** Enter/Space on an item: open its submenu, or cycle to its next value. */
	private activate(item: SettingItem): void {
		if (item.submenu) {
			this.submenu = item.submenu(item.currentValue, (value, opts) => {
				this.submenu = undefined;
				if (value !== undefined) {
					item.currentValue = value;
					this.onChange(item.id, value);
				}
				if (opts?.navigateTo) this.selectItem(opts.navigateTo);
			});
			return;
		}
		if (item.values && item.values.length > 0) {
			const next = item.values[(item.values.indexOf(item.currentValue) + 1) % item.values.length]!;
			item.currentValue = next;
			this.onChange(item.id, next);
		}
	}

	/**
	 * The wheel moves the selection; a left click on an item selects it and acts as Enter/Space.
	 * The search line, when there is one, is the search input's.
	 */
	handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
		if (this.submenu) {
			const result = this.submenu.handleMouse?.(event);
			return result ? { ...result, focus: true } : undefined;
		}
		if (this.search && event.y <= 1) {
			const result = event.y === 0 ? this.search.handleMouse(event) : undefined;
			return result ? { ...result, focus: true } : undefined;
		}
		const items = this.visibleItems();
		if (items.length === 0) return undefined;
		if (event.type === "wheel" && event.wheelDelta) {
			const before = this.selected;
			this.selected = Math.max(0, Math.min(items.length - 1, this.selected + Math.sign(event.wheelDelta)));
			return { handled: true, render: this.selected !== before };
		}
		// Hover leaves the selection alone: the visible window is centred on it.
		if (event.button !== "left" || (event.type !== "press" && event.type !== "click")) return undefined;
		const { start, end } = this.visibleRange(items);
		const index = start + event.y - (this.search ? 2 : 0);
		if (index < start || index >= end) return undefined;
		if (event.type === "press") {
			this.pressedIndex = index;
			this.selected = index;
			return { handled: true, focus: true };
		}
		this.selected = this.pressedIndex ?? index;
		this.pressedIndex = undefined;
		const item = items[this.selected];
		if (item) this.activate(item);
		return { handled: true };
	}

	/** Rows on screen: a window of `maxVisible` items around the selection. */
	private visibleRange(items: readonly SettingItem[]): { start: number; end: number } {
		const visible = Math.min(this.maxVisible, items.length);
		const start = Math.min(Math.max(0, this.selected - Math.floor(visible / 2)), items.length - visible);
		return { start, end: start + visible };
	}

	render(width: number): readonly string[] {
		if (this.submenu) return this.submenu.render(width);
		const lines: string[] = [];
		if (this.search) lines.push(...this.search.render(width), "");
		const items = this.visibleItems();
		if (items.length === 0) {
			lines.push(truncateToWidth(this.theme.hint("  No matching settings"), width));
			return lines;
		}
		this.selected = Math.min(this.selected, items.length - 1);
		const { start, end } = this.visibleRange(items);
		const labelWidth = Math.min(MAX_LABEL_WIDTH, Math.max(...items.map((i) => visibleWidth(i.label))));
		const cursorWidth = visibleWidth(this.theme.cursor);
		for (let k = start; k < end; k++) {
			const item = items[k]!;
			const selected = k === this.selected;
			const prefix = selected ? this.theme.cursor : " ".repeat(cursorWidth);
			const label = this.theme.label(padToWidth(truncateToWidth(item.label, labelWidth, ""), labelWidth), selected);
			const room = Math.max(0, width - cursorWidth - labelWidth - 2);
			const value = this.theme.value(truncateToWidth(item.currentValue, room, "…"), selected);
			lines.push(truncateToWidth(`${prefix}${label}  ${value}`, width, ""));
		}
		if (end - start < items.length)
			lines.push(truncateToWidth(this.theme.hint(`  (${this.selected + 1}/${items.length})`), width, ""));
		const description = items[this.selected]?.description;
		if (description) {
			lines.push("");
			for (const l of wrapTextWithAnsi(description, Math.max(1, width - 4)))
				lines.push(`  ${this.theme.description(l)}`);
		}
		lines.push("", truncateToWidth(this.theme.hint("  Enter/Space to change · Esc to close"), width, ""));
		return lines;
	}
}
