import {
	type Component,
	getKeybindings,
	matchesKey,
	ProcessTerminal,
	sanitizeTerminalText,
	type Terminal,
	TuiMainScreen,
	truncateToWidth,
} from "@tau/tui";
import { type ConfigRow, configRows } from "./config-rows.js";
import type { ConfigScope, ResourceConfig } from "./resource-config.js";

const bold = (text: string) => `\x1b[1m${text}\x1b[22m`;
const dim = (text: string) => `\x1b[2m${text}\x1b[22m`;
const cyan = (text: string) => `\x1b[36m${text}\x1b[39m`;

/** Rows around the list: title, settings file, blank, blank, key hint, status. */
const CHROME_ROWS = 6;

export interface ConfigTuiOptions {
	config: ResourceConfig;
	scope: ConfigScope;
	places: { cwd: string; homeDir: string };
	/** Where each scope writes, shown under the title. */
	settingsFiles: Record<ConfigScope, string>;
	terminal?: Terminal;
}

/**
 * The `tau config` list: resources grouped in sections with their state. Space/Enter toggles the
 * selected one (written at once), Tab switches between the user and the project scope, Esc or q
 * leaves.
 */
class ResourceToggleList implements Component {
	private scope: ConfigScope;
	private rows: ConfigRow[] = [];
	private selected = 0;
	private status = "";

	constructor(
		private readonly options: ConfigTuiOptions,
		private readonly rowsAvailable: () => number,
		private readonly redraw: () => void,
		private readonly done: () => void,
	) {
		this.scope = options.scope;
		this.refresh();
	}

	invalidate(): void {}

	handleInput(data: string): void {
		const kb = getKeybindings();
		const items = this.itemRows();
		if (kb.matches(data, "tui.select.cancel") || data === "q") {
			this.done();
			return;
		}
		if (kb.matches(data, "tui.select.up")) {
			if (items.length > 0) this.selected = (this.selected - 1 + items.length) % items.length;
		} else if (kb.matches(data, "tui.select.down")) {
			if (items.length > 0) this.selected = (this.selected + 1) % items.length;
		} else if (matchesKey(data, "tab")) {
			this.switchScope();
		} else if (kb.matches(data, "tui.select.confirm") || matchesKey(data, "space")) {
			const row = items[this.selected];
			if (row?.item.toggleable) {
				this.options.config.toggle(this.scope, row.item);
				this.refresh(row.item.id);
			} else if (row) {
				this.status = `${row.label} is a whole package: remove the package to stop loading it.`;
			}
		}
		// Draw at once, so what a key changed is on screen when the key returns.
		this.redraw();
	}

	render(width: number): readonly string[] {
		const scopeName = this.scope === "user" ? "User" : "Project";
		const lines = [
			bold(`Resources · ${scopeName} scope`),
			dim(this.options.settingsFiles[this.scope]),
			"",
			...this.listLines(Math.max(3, this.rowsAvailable() - CHROME_ROWS)),
			"",
			dim("↑↓ move · Space/Enter toggle · Tab user/project scope · Esc/q quit"),
		];
		if (this.status) lines.push(dim(this.status));
		// Resource names and paths come from packages and projects: shown sanitised, one line each.
		return lines.map((line) =>
			truncateToWidth(sanitizeTerminalText(line, { keepStyle: true }).replace(/\n/g, " "), width, ""),
		);
	}

	private itemRows(): Extract<ConfigRow, { type: "item" }>[] {
		return this.rows.filter((row): row is Extract<ConfigRow, { type: "item" }> => row.type === "item");
	}

	private switchScope(): void {
		if (this.scope === "user" && !this.options.config.projectTrusted) {
			this.status = "The project is not trusted: only the user scope can be changed.";
			return;
		}
		this.scope = this.scope === "user" ? "project" : "user";
		this.selected = 0;
		this.refresh();
	}

	/** Re-resolves the scope (after a write, each item's state may change) and keeps the selection. */
	private refresh(keepId?: string): void {
		const { items } = this.options.config.items(this.scope);
		this.rows = configRows(items, this.scope, this.options.places);
		this.status = items.length === 0 ? "No resources found." : "";
		if (keepId !== undefined) {
			const index = this.itemRows().findIndex((row) => row.item.id === keepId);
			if (index >= 0) this.selected = index;
		}
		this.selected = Math.min(this.selected, Math.max(0, this.itemRows().length - 1));
	}

	/** The rows that fit, scrolled so the selected item (and, when possible, its section) shows. */
	private listLines(height: number): string[] {
		const selectedRow = this.rows.indexOf(this.itemRows()[this.selected]!);
		const start = Math.max(0, Math.min(selectedRow - Math.floor(height / 2), this.rows.length - height));
		return this.rows.slice(start, start + height).map((row, offset) => {
			if (row.type === "section") return bold(row.title);
			const current = start + offset === selectedRow;
			const box = row.item.enabled ? "[x]" : "[ ]";
			const state = row.item.projectState === undefined ? "" : `  ${dim(row.item.projectState)}`;
			const text = `${box} ${row.label}`;
			return current ? `${cyan("❯")} ${bold(text)}${state}` : `  ${text}${state}`;
		});
	}
}

/** Runs the list until the user leaves, then waits for the settings writes. */
export async function runConfigTui(options: ConfigTuiOptions): Promise<void> {
	const terminal = options.terminal ?? new ProcessTerminal();
	const tui = new TuiMainScreen(terminal);
	await new Promise<void>((resolve) => {
		const list = new ResourceToggleList(
			options,
			() => terminal.rows,
			() => tui.renderNow(),
			() => {
				tui.stop();
				resolve();
			},
		);
		tui.addChild(list);
		tui.setFocus(list);
		tui.start();
		tui.renderNow();
	});
	await options.config.flush();
}
