import {
	type AutocompleteItem,
	type AutocompleteProvider,
	type CompletionResult,
	isSlashCommandNameContext,
} from "../../autocomplete/autocomplete.js";
import { getKeybindings } from "../../keys/keybindings.js";
import type { TuiMouseEvent, TuiMouseEventResult } from "../../tui/component.js";
import { SelectList, type SelectListTheme } from "../select-list.js";

const ATTACHMENT_DEBOUNCE_MS = 20;

/** What the menu needs from the editor. */
export interface AutocompleteHost {
	lines(): readonly string[];
	cursor(): { line: number; col: number };
	apply(result: CompletionResult): void;
	requestRender(): void;
}

interface OpenMenu {
	list: SelectList;
	prefix: string;
	commandNameMenu: boolean;
	forced: boolean;
}

/** The editor's completion menu: asynchronous, cancellable requests and a select list. */
export class EditorAutocomplete {
	provider: AutocompleteProvider | undefined;
	maxVisible = 5;
	private menu: OpenMenu | undefined;
	private controller: AbortController | undefined;
	private debounce: ReturnType<typeof setTimeout> | undefined;

	constructor(
		private readonly host: AutocompleteHost,
		private readonly theme: SelectListTheme,
	) {}

	isOpen(): boolean {
		return this.menu !== undefined;
	}

	close(): void {
		this.cancelPending();
		this.menu = undefined;
	}

	private cancelPending(): void {
		this.controller?.abort();
		this.controller = undefined;
		if (this.debounce) clearTimeout(this.debounce);
		this.debounce = undefined;
	}

	/** Starts a request; attachment contexts are debounced, Tab/forced requests are not. */
	request(options: { force?: boolean; debounced?: boolean } = {}): void {
		if (!this.provider) return;
		this.cancelPending();
		if (options.debounced) {
			this.debounce = setTimeout(() => {
				this.debounce = undefined;
				void this.run(options.force ?? false);
			}, ATTACHMENT_DEBOUNCE_MS);
			return;
		}
		void this.run(options.force ?? false);
	}

	private async run(force: boolean): Promise<void> {
		const provider = this.provider;
		if (!provider) return;
		const controller = new AbortController();
		this.controller = controller;
		const lines = this.host.lines();
		const snapshot = lines.join("\n");
		const { line, col } = this.host.cursor();
		let result: Awaited<ReturnType<AutocompleteProvider["getSuggestions"]>>;
		try {
			result = await provider.getSuggestions(lines, line, col, { signal: controller.signal, force });
		} catch {
			result = null;
		}
		const now = this.host.cursor();
		// Apply only if nothing changed while the request ran.
		if (
			controller.signal.aborted ||
			this.host.lines().join("\n") !== snapshot ||
			now.line !== line ||
			now.col !== col
		)
			return;
		this.controller = undefined;
		if (!result || result.items.length === 0) {
			if (this.menu) {
				this.menu = undefined;
				this.host.requestRender();
			}
			return;
		}
		const list = new SelectList(result.items, this.maxVisible, this.theme);
		list.setSelectedIndex(bestIndex(result.items, result.prefix));
		this.menu = {
			list,
			prefix: result.prefix,
			commandNameMenu: isSlashCommandNameContext(lines, line, col),
			forced: force,
		};
		this.host.requestRender();
	}

	/**
	 * Handles a key while the menu is open. Returns "handled", "submit" (a command name was applied
	 * and Enter should submit), or undefined when the key is not the menu's.
	 */
	handleKey(data: string): "handled" | "submit" | undefined {
		const menu = this.menu;
		if (!menu) return undefined;
		const kb = getKeybindings();
		if (kb.matches(data, "tui.select.cancel")) {
			this.close();
			return "handled";
		}
		if (
			kb.matches(data, "tui.select.up") ||
			kb.matches(data, "tui.select.down") ||
			kb.matches(data, "tui.select.pageUp") ||
			kb.matches(data, "tui.select.pageDown")
		) {
			menu.list.handleInput(data);
			return "handled";
		}
		if (kb.matches(data, "tui.input.tab")) {
			this.applySelected(menu);
			return "handled";
		}
		if (kb.matches(data, "tui.select.confirm") || kb.matches(data, "tui.input.submit")) {
			this.applySelected(menu);
			return menu.commandNameMenu ? "submit" : "handled";
		}
		return undefined;
	}

	private applySelected(menu: OpenMenu): void {
		const item = menu.list.getSelectedItem();
		this.close();
		if (!item || !this.provider) return;
		const { line, col } = this.host.cursor();
		this.host.apply(this.provider.applyCompletion(this.host.lines(), line, col, item, menu.prefix));
		// A completed directory keeps the menu open on its contents.
		if (item.value.replace(/"$/, "").endsWith("/")) this.request({ force: menu.forced });
	}

	handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
		return this.menu?.list.handleMouse(event);
	}

	render(width: number): readonly string[] {
		return this.menu ? this.menu.list.render(width) : [];
	}
}

/** Exact value match first, else the first value starting with the prefix, else the top item. */
function bestIndex(items: readonly AutocompleteItem[], prefix: string): number {
	const exact = items.findIndex((i) => i.value === prefix);
	if (exact >= 0) return exact;
	const starts = items.findIndex((i) => i.value.startsWith(prefix));
	return Math.max(starts, 0);
}
