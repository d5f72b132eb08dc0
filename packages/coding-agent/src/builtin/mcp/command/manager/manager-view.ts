import {
	type Component,
	type KeybindingsManager,
	type SelectItem,
	SelectList,
	type TUI,
	truncateToWidth,
	wrapTextWithAnsi,
} from "@tau/tui";
import { keyHint } from "../../../../modes/interactive/keybindings/key-hints.js";
import type { UiTheme } from "../../../../modes/interactive/theme/ui-theme.js";

/** One screen of the `/mcp` manager: a title, what the server is and why it fails, and choices. */
export interface ManagerMenu {
	title: string;
	/** Plain facts (transport, source, state), one per line. */
	details?: string[];
	/** A failure reason, shown in the error colour with every line kept. */
	error?: string;
	/** The outcome of the last action on this screen. */
	note?: string;
	items: SelectItem[];
	/** The value to select when the menu first shows. */
	selected?: string;
	/** Shown instead of the list when there are no items. */
	empty?: string;
	confirmLabel: string;
	cancelLabel: string;
}

const MAX_VISIBLE_ITEMS = 12;
/** Failure reasons longer than this keep their last lines (the end of stderr says why). */
const MAX_ERROR_LINES = 14;

/**
 * The component behind `/mcp` in the TUI: shows one menu or status screen at a time and rebuilds
 * the current menu whenever the servers change, keeping the selection.
 */
export class McpManagerView implements Component {
	readonly capturesViewportInput = true;
	private lines: (width: number) => string[] = () => [];
	private input: ((data: string) => void) | undefined;

	constructor(
		private readonly tui: TUI,
		private readonly theme: UiTheme,
		private readonly keys: KeybindingsManager,
	) {}

	/** Shows `build()` until an item is chosen (its value) or the menu is left (undefined). */
	menu(build: () => ManagerMenu, subscribe?: (listener: () => void) => () => void): Promise<string | undefined> {
		return new Promise((resolve) => {
			let selected: string | undefined;
			let settled = false;
			let unsubscribe: (() => void) | undefined;
			const finish = (value: string | undefined) => {
				if (settled) return;
				settled = true;
				unsubscribe?.();
				resolve(value);
			};
			const show = () => {
				const menu = build();
				const list = new SelectList(
					menu.items,
					Math.min(MAX_VISIBLE_ITEMS, Math.max(1, menu.items.length)),
					this.theme.selectList(),
				);
				const wanted = selected ?? menu.selected;
				const index = menu.items.findIndex((item) => item.value === wanted);
				if (index >= 0) list.setSelectedIndex(index);
				selected = list.getSelectedItem()?.value;
				list.onSelectionChange = (item) => {
					selected = item.value;
				};
				list.onSelect = (item) => finish(item.value);
				list.onCancel = () => finish(undefined);
				const hints = [
					menu.items.length > 0 ? keyHint("tui.select.confirm", menu.confirmLabel) : "",
					keyHint("tui.select.cancel", menu.cancelLabel),
				].filter(Boolean);
				this.lines = (width) => {
					const body = menu.items.length > 0 ? list.render(width) : [this.theme.fg("muted", menu.empty ?? "")];
					return this.frame(width, menu.title, [...this.header(menu, width), "", ...body], hints.join(" • "));
				};
				this.input = (data) => {
					if (menu.items.length === 0) {
						if (this.keys.matches(data, "tui.select.cancel")) finish(undefined);
						return;
					}
					list.handleInput(data);
				};
				this.tui.requestRender();
			};
			show();
			unsubscribe = subscribe?.(() => {
				if (!settled) show();
			});
		});
	}

	/** A screen without choices (work in progress); Escape calls `onCancel` when given. */
	status(title: string, lines: string[], onCancel?: () => void): void {
		this.lines = (width) =>
			this.frame(
				width,
				title,
				lines.flatMap((line) => wrapTextWithAnsi(this.theme.fg("muted", line), width)),
				onCancel ? keyHint("tui.select.cancel", "cancel") : "",
			);
		this.input = (data) => {
			if (onCancel && this.keys.matches(data, "tui.select.cancel")) onCancel();
		};
		this.tui.requestRender();
	}

	handleInput(data: string): void {
		this.input?.(data);
		this.tui.requestRender();
	}

	invalidate(): void {}

	render(width: number): readonly string[] {
		return this.lines(width).map((line) => truncateToWidth(line, width));
	}

	private header(menu: ManagerMenu, width: number): string[] {
		const lines: string[] = [];
		for (const line of menu.details ?? []) lines.push(...wrapTextWithAnsi(this.theme.fg("muted", line), width));
		if (menu.error) {
			const all = menu.error.split("\n");
			const kept =
				all.length > MAX_ERROR_LINES
					? [all[0]!, `… ${all.length - MAX_ERROR_LINES} lines`, ...all.slice(-(MAX_ERROR_LINES - 1))]
					: all;
			for (const line of kept) lines.push(...wrapTextWithAnsi(this.theme.fg("error", line), width));
		}
		if (menu.note) lines.push(...wrapTextWithAnsi(this.theme.fg("accent", menu.note), width));
		return lines;
	}

	private frame(width: number, title: string, body: string[], hint: string): string[] {
		const border = this.theme.fg("borderAccent", "─".repeat(Math.max(1, width)));
		return [border, this.theme.bold(this.theme.fg("accent", title)), ...body, "", this.theme.fg("dim", hint), border];
	}
}
