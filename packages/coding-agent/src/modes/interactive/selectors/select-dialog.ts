import {
	type Component,
	type Focusable,
	fuzzyFilter,
	Input,
	type KeybindingsManager,
	type SelectItem,
	SelectList,
	sanitizeTerminalText,
	type TuiMouseEvent,
	type TuiMouseEventResult,
	truncateToWidth,
	visibleWidth,
} from "@tau/tui";
import type { Theme } from "../../../core/resources/index.js";
import { selectListTheme } from "../theme/component-themes.js";
import { type DialogCountdown, DialogTitleWindow } from "./dialog-title.js";
import { prefillInput } from "./input-prefill.js";

export interface SelectDialogOptions {
	title: string;
	items: SelectItem[];
	filter?: string;
	selected?: string;
	hint?: string;
	/** Extra action keys; a handler returning true closes the dialog with the current item. */
	actions?: Record<string, (item: SelectItem | undefined, query: string) => boolean | Promise<boolean>>;
	maxVisible?: number;
	/** A running countdown shown after the title (a dialog with a timeout). */
	countdown?: DialogCountdown;
	/** Rows the dialog may take: a taller title scrolls (`DialogTitleWindow`). */
	maxRows?: () => number;
}

/**
 * A titled, fuzzy-filtered list shown in place of the editor (model, thinking, session, fork and
 * tree pickers, extension `select`). Typing filters; Enter picks; Escape cancels.
 */
export class SelectDialog implements Component, Focusable {
	readonly capturesViewportInput = true;
	private readonly input = new Input({ prompt: "› " });
	private readonly list: SelectList;
	private readonly titleWindow: DialogTitleWindow;
	private done = false;
	private _focused = false;

	constructor(
		private readonly theme: Theme,
		private readonly keys: KeybindingsManager,
		private options: SelectDialogOptions,
		private readonly finish: (item: SelectItem | undefined) => void,
	) {
		// Items quote session names, messages and extension strings: shown sanitised, values kept (the
		// title is sanitised where it is drawn, dialog-title.ts).
		this.options = {
			...options,
			items: options.items.map((item) => ({
				...item,
				label: sanitizeTerminalText(item.label, { keepStyle: true }),
				...(item.description !== undefined ? { description: sanitizeTerminalText(item.description) } : {}),
			})),
		};
		// The label column fits the longest label (settings names, models): labels are never cut.
		const widest = Math.max(0, ...this.options.items.map((item) => visibleWidth(item.label)));
		this.list = new SelectList(this.options.items, options.maxVisible ?? 10, selectListTheme(theme), {
			maxPrimaryWidth: Math.max(32, widest + 2),
		});
		this.titleWindow = new DialogTitleWindow(theme, options.maxRows);
		this.list.onSelect = (item) => this.close(item);
		this.list.onCancel = () => this.close(undefined);
		if (options.filter) {
			prefillInput(this.input, options.filter);
			this.applyFilter();
		}
		if (options.selected) {
			const index = this.visibleItems().findIndex((item) => item.value === options.selected);
			if (index >= 0) this.list.setSelectedIndex(index);
		}
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.input.focused = value;
	}

	private visibleItems(): readonly SelectItem[] {
		return this.list.getItems();
	}

	private applyFilter(): void {
		const query = this.input.getValue().trim();
		const items =
			query === ""
				? this.options.items
				: fuzzyFilter(this.options.items, query, (item) => `${item.label} ${item.value}`);
		this.list.setItems(items);
	}

	private close(item: SelectItem | undefined): void {
		if (this.done) return;
		this.done = true;
		this.finish(item);
	}

	handleInput(data: string): void {
		if (this.titleWindow.handleInput(data)) return;
		for (const [action, handler] of Object.entries(this.options.actions ?? {})) {
			if (!this.keys.matches(data, action)) continue;
			const item = this.list.getSelectedItem();
			void Promise.resolve(handler(item, this.input.getValue())).then((close) => {
				if (close) this.close(item);
			});
			return;
		}
		if (
			this.keys.matches(data, "tui.select.up") ||
			this.keys.matches(data, "tui.select.down") ||
			this.keys.matches(data, "tui.select.pageUp") ||
			this.keys.matches(data, "tui.select.pageDown") ||
			this.keys.matches(data, "tui.select.confirm") ||
			this.keys.matches(data, "tui.select.cancel")
		) {
			this.list.handleInput(data);
			return;
		}
		const before = this.input.getValue();
		this.input.handleInput(data);
		if (this.input.getValue() !== before) this.applyFilter();
	}

	handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
		return this.titleWindow.handleMouse(event);
	}

	invalidate(): void {
		this.input.invalidate();
		this.list.invalidate();
	}

	render(width: number): readonly string[] {
		const border = this.theme.fg("borderAccent", "─".repeat(width));
		const hint = this.options.hint ?? "Type to filter · Enter to select · Escape to cancel";
		const body = [
			...this.input.render(width),
			...this.list.render(width),
			truncateToWidth(this.theme.fg("dim", hint), width),
		];
		const seconds = this.options.countdown?.seconds;
		const title = this.titleWindow.render(this.options.title, width, body.length + 2, seconds);
		return [border, ...title, ...body, border];
	}
}
