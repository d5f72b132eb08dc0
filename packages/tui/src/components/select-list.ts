import { getKeybindings, getSelectPageIndex } from "../keys/keybindings.js";
import { padToWidth, truncateToWidth } from "../text/truncate.js";
import { visibleWidth } from "../text/width.js";
import type { Component, TuiMouseEvent, TuiMouseEventResult } from "../tui/component.js";

/** One entry of a `SelectList`: the value returned, the label shown and an optional description. */
export interface SelectItem {
	value: string;
	label: string;
	description?: string;
}

/** Colours of `SelectList`: the selected entry, descriptions, scroll info and the no-match text. */
export interface SelectListTheme {
	selectedPrefix: (text: string) => string;
	selectedText: (text: string) => string;
	description: (text: string) => string;
	scrollInfo: (text: string) => string;
	noMatch: (text: string) => string;
}

/** Column widths of a `SelectList` that shows descriptions. */
export interface SelectListLayout {
	/** Bounds of the label column when descriptions are shown. */
	minPrimaryWidth?: number;
	maxPrimaryWidth?: number;
}

/** A vertical list with one selected item, scrolling to keep it visible. */
export class SelectList implements Component {
	readonly capturesViewportInput = true;
	onSelect?: (item: SelectItem) => void;
	onCancel?: () => void;
	onSelectionChange?: (item: SelectItem) => void;
	private filtered: SelectItem[];
	private selected = 0;
	private pressedRow: number | undefined;
	/** Index of the first visible item in the last render. */
	private windowStart = 0;

	constructor(
		private items: SelectItem[],
		private readonly maxVisible: number,
		private readonly theme: SelectListTheme,
		private readonly layout: SelectListLayout = {},
	) {
		this.filtered = items;
	}

	setItems(items: SelectItem[]): void {
		this.items = items;
		this.filtered = items;
		this.selected = 0;
	}

	/** Keeps items whose value starts with `prefix` (case-insensitive); resets the selection. */
	setFilter(prefix: string): void {
		const p = prefix.toLowerCase();
		this.filtered = this.items.filter((i) => i.value.toLowerCase().startsWith(p));
		this.selected = 0;
	}

	setSelectedIndex(index: number): void {
		this.selected = Math.max(0, Math.min(this.filtered.length - 1, index));
	}

	getSelectedIndex(): number {
		return this.selected;
	}

	getSelectedItem(): SelectItem | undefined {
		return this.filtered[this.selected];
	}

	getItems(): readonly SelectItem[] {
		return this.filtered;
	}

	invalidate(): void {}

	private select(index: number): void {
		if (index === this.selected) return;
		this.selected = index;
		const item = this.filtered[index];
		if (item) this.onSelectionChange?.(item);
	}

	handleInput(data: string): void {
		const kb = getKeybindings();
		const count = this.filtered.length;
		if (kb.matches(data, "tui.select.up")) {
			if (count > 0) this.select(this.selected === 0 ? count - 1 : this.selected - 1);
			return;
		}
		if (kb.matches(data, "tui.select.down")) {
			if (count > 0) this.select(this.selected === count - 1 ? 0 : this.selected + 1);
			return;
		}
		const page = getSelectPageIndex(kb, data, this.selected, count, this.maxVisible);
		if (page !== undefined) {
			this.select(page);
			return;
		}
		if (kb.matches(data, "tui.select.confirm")) {
			const item = this.filtered[this.selected];
			if (item) this.onSelect?.(item);
			return;
		}
		if (kb.matches(data, "tui.select.cancel")) this.onCancel?.();
	}

	handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
		const count = this.filtered.length;
		if (event.type === "wheel") {
			if (count === 0) return { handled: true };
			const next = this.selected + Math.sign(event.wheelDelta ?? 0);
			this.select(Math.max(0, Math.min(count - 1, next)));
			return { handled: true };
		}
		const index = this.windowStart + event.y;
		const onItem = index >= 0 && index < count && event.y < Math.min(this.maxVisible, count);
		if (event.type === "press") {
			if (!onItem) return undefined;
			this.pressedRow = index;
			this.select(index);
			return { focus: true };
		}
		if (event.type === "click") {
			if (onItem && this.pressedRow === index) {
				const item = this.filtered[index];
				if (item) this.onSelect?.(item);
			}
			this.pressedRow = undefined;
			return { handled: true };
		}
		return event.type === "move" ? { handled: true, render: false } : undefined;
	}

	render(width: number): readonly string[] {
		const count = this.filtered.length;
		if (count === 0) return [truncateToWidth(this.theme.noMatch("  No matching commands"), width)];
		const visible = Math.min(this.maxVisible, count);
		let start = Math.max(0, this.selected - Math.floor(visible / 2));
		start = Math.min(start, count - visible);
		this.windowStart = start;
		const shown = this.filtered.slice(start, start + visible);
		const withDescriptions = width > 40 && shown.some((i) => i.description);
		let primary = 0;
		if (withDescriptions) {
			const widest = Math.max(...shown.map((i) => visibleWidth(i.label.replace(/[\r\n]+/g, " ")))) + 2;
			primary = Math.max(this.layout.minPrimaryWidth ?? 0, Math.min(this.layout.maxPrimaryWidth ?? 32, widest));
		}
		const lines: string[] = [];
		shown.forEach((item, k) => {
			const isSelected = start + k === this.selected;
			const prefix = isSelected ? this.theme.selectedPrefix("→ ") : "  ";
			const room = width - 2;
			let row: string;
			const descriptionRoom = room - primary;
			// An item is one row: a line break in a label would break the list's layout.
			const itemLabel = item.label.replace(/[\r\n]+/g, " ");
			if (withDescriptions && item.description && descriptionRoom > 10) {
				const label = padToWidth(truncateToWidth(itemLabel, primary - 1, ""), primary);
				const desc = truncateToWidth(item.description.replace(/\s+/g, " "), descriptionRoom, "…");
				row = label + (isSelected ? desc : this.theme.description(desc));
			} else {
				row = truncateToWidth(itemLabel, room, "…");
			}
			lines.push(truncateToWidth(prefix + (isSelected ? this.theme.selectedText(row) : row), width, ""));
		});
		if (visible < count)
			lines.push(truncateToWidth(this.theme.scrollInfo(`  (${this.selected + 1}/${count})`), width, ""));
		return lines;
	}
}
