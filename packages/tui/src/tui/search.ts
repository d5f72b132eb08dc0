import { Input } from "../components/input.js";
import { getKeybindings } from "../keys/keybindings.js";
import type { ScrollView } from "../layout/scroll-view.js";
import { stripTerminalSequences } from "../text/ansi.js";
import { graphemes, graphemeWidth } from "../text/grapheme.js";
import { padToWidth, truncateToWidth } from "../text/truncate.js";
import { visibleWidth } from "../text/width.js";
import type { Component, Focusable, TuiMouseEvent, TuiMouseEventResult } from "./component.js";

/** A match as content rows and columns (end exclusive), possibly spanning rows. */
export interface SearchMatch {
	startRow: number;
	startCol: number;
	endRow: number;
	endCol: number;
}

interface Position {
	row: number;
	col: number;
}

/** Case-insensitive literal search where any whitespace run (including line ends) matches one space. */
export function findMatches(lines: readonly string[], rawQuery: string): SearchMatch[] {
	const query = rawQuery.replace(/\s+/g, " ").trim().toLowerCase();
	if (!query) return [];
	let flat = "";
	const positions: Position[] = [];
	const push = (ch: string, pos: Position) => {
		if (/\s/.test(ch)) {
			if (flat.endsWith(" ")) return;
			flat += " ";
		} else flat += ch.toLowerCase();
		for (let k = positions.length; k < flat.length; k++) positions.push(pos);
	};
	lines.forEach((line, row) => {
		let col = 0;
		for (const g of graphemes(stripTerminalSequences(line))) {
			push(g, { row, col });
			col += graphemeWidth(g);
		}
		push("\n", { row, col });
	});
	const matches: SearchMatch[] = [];
	for (let at = flat.indexOf(query); at >= 0; at = flat.indexOf(query, at + 1)) {
		const start = positions[at]!;
		const last = positions[at + query.length - 1]!;
		const lastLine = stripTerminalSequences(lines[last.row] ?? "");
		let lastWidth = 1;
		let col = 0;
		for (const g of graphemes(lastLine)) {
			if (col === last.col) {
				lastWidth = graphemeWidth(g);
				break;
			}
			col += graphemeWidth(g);
		}
		matches.push({ startRow: start.row, startCol: start.col, endRow: last.row, endCol: last.col + lastWidth });
	}
	return matches;
}

/** The search overlay: an input, the match count and navigation hints. */
export class SearchPanel implements Component, Focusable {
	readonly input = new Input({ prompt: "" });
	status = "";
	private _focused = false;

	/** Column ranges of the previous/next buttons on the status row, from the last render. */
	private buttons: { prev: [number, number]; next: [number, number] } | undefined;

	private hovered: "prev" | "next" | undefined;

	constructor(
		private readonly onQueryChange: (query: string) => void,
		private readonly onNavigate: (direction: 1 | -1) => void,
		private readonly buttonStyle: (text: string, hovered: boolean) => string = (t, hovered) =>
			hovered ? `\x1b[7m${t}\x1b[27m` : t,
	) {}

	handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
		const within = ([a, b]: [number, number]) => event.y === 2 && event.x >= a && event.x < b;
		const target = !this.buttons
			? undefined
			: within(this.buttons.prev)
				? "prev"
				: within(this.buttons.next)
					? "next"
					: undefined;
		if (event.type === "move") {
			const changed = target !== this.hovered;
			this.hovered = target;
			return { handled: true, render: changed };
		}
		if (event.type === "press" && target) this.onNavigate(target === "prev" ? -1 : 1);
		return { handled: true };
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.input.focused = value;
	}

	invalidate(): void {}

	handleInput(data: string): void {
		const before = this.input.getValue();
		this.input.handleInput(data);
		if (this.input.getValue() !== before) this.onQueryChange(this.input.getValue());
	}

	render(width: number): readonly string[] {
		const inner = Math.max(1, width - 4);
		const kb = getKeybindings();
		const keyName = (action: string) => {
			const key = kb.getKeys(action)[0];
			if (!key) return "Unbound";
			const label = (part: string) =>
				part === "alt" && process.platform === "darwin" ? "Option" : part[0]!.toUpperCase() + part.slice(1);
			return key.split("+").map(label).join("+");
		};
		const prev = `↑ ${keyName("tui.altScreen.searchPrevious")}`;
		const next = `↓ ${keyName("tui.altScreen.searchNext")}`;
		const nav = `${this.buttonStyle(prev, this.hovered === "prev")}  ${this.buttonStyle(next, this.hovered === "next")}`;
		const prevStart = 2 + visibleWidth(this.status) + 2;
		const nextStart = prevStart + visibleWidth(prev) + 2;
		this.buttons = {
			prev: [prevStart, prevStart + visibleWidth(prev)],
			next: [nextStart, nextStart + visibleWidth(next)],
		};
		const row = (text: string) => `│ ${padToWidth(truncateToWidth(text, inner, "…"), inner)} │`;
		const title = truncateToWidth(" Search ", Math.max(0, width - 2), "");
		return [
			`┌${title}${"─".repeat(Math.max(0, width - 2 - title.length))}┐`,
			row(this.input.render(inner)[0] ?? ""),
			row(`${this.status}  ${nav}`),
			`└${"─".repeat(Math.max(0, width - 2))}┘`,
		];
	}
}

/** Search state over the primary scroll view. */
export class ViewportSearch {
	matches: SearchMatch[] = [];
	current = -1;
	/** Set when the current match should be scrolled into view on the next frame. */
	revealPending = false;
	private query = "";
	private searchedLines: readonly string[] | undefined;

	setQuery(query: string, view: ScrollView): void {
		this.query = query;
		this.refresh(view, true);
	}

	/** Recomputes matches when content changed; a new query selects the first match at/after the view top. */
	refresh(view: ScrollView, queryChanged = false): void {
		if (!queryChanged && this.searchedLines === view.contentLines) return;
		this.searchedLines = view.contentLines;
		const previous = this.matches[this.current];
		this.matches = findMatches(view.contentLines, this.query);
		if (queryChanged || !previous) {
			const anchor = view.scrollTop;
			const index = this.matches.findIndex((m) => m.startRow >= anchor);
			this.current = this.matches.length === 0 ? -1 : Math.max(index, 0);
			this.revealPending = this.current >= 0;
		} else {
			this.current = Math.min(this.current, this.matches.length - 1);
		}
	}

	step(direction: 1 | -1): void {
		if (this.matches.length === 0) return;
		this.current = (this.current + direction + this.matches.length) % this.matches.length;
		this.revealPending = true;
	}

	status(): string {
		if (!this.query.trim()) return "";
		return this.matches.length === 0 ? "No matches" : `${this.current + 1}/${this.matches.length}`;
	}

	/** Scrolls so the current match sits a third from the top (following stops). */
	reveal(view: ScrollView): boolean {
		if (!this.revealPending) return false;
		this.revealPending = false;
		const m = this.matches[this.current];
		if (!m) return false;
		if (m.startRow >= view.scrollTop && m.endRow < view.scrollTop + view.viewportHeight) return false;
		view.scrollTo(m.startRow - Math.floor(view.viewportHeight / 3), { disableFollow: true });
		return true;
	}
}
