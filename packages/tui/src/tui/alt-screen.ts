import { getCapabilities, setCapabilities } from "../capabilities/capabilities.js";
import { deleteAllKittyImages, deleteKittyPlacements } from "../images/encoders.js";
import { getKeybindings } from "../keys/keybindings.js";
import { isKeyRelease } from "../keys/parse-key.js";
import { LayoutFrameContext, type LayoutRegion, renderLayoutFrame } from "../layout/layout-frame.js";
import { ScrollView } from "../layout/scroll-view.js";
import type { Terminal } from "../terminal/terminal.js";
import { sliceByColumn } from "../text/truncate.js";
import { visibleWidth } from "../text/width.js";
import { AltScreenPointer } from "./alt-screen-pointer.js";
import type { Component } from "./component.js";
import { applyLineResets, extractCursor, isImageLine, resolveFakeCursors, stripPromptMarkers } from "./frame.js";
import { highlightColumns } from "./highlight.js";
import { MOUSE_DISABLE, mouseEnableSequence, parseMouseReport } from "./mouse.js";
import { OutputWriter } from "./output-writer.js";
import { compositeOverlays, compositeTuiLine } from "./overlay-layout.js";
import { SearchPanel, ViewportSearch } from "./search.js";
import { type InputListenerResult, type OverlayHandle, type TUI, TuiBase, type TuiMode } from "./tui-base.js";

/** Options of `TuiAltScreen`: mouse and wheel handling, search styles, link opening and copy on select. */
export interface TuiAltScreenOptions {
	wheelScrollLines?: number | "auto";
	mouse?: boolean;
	searchMatchStyle?: (t: string) => string;
	searchCurrentMatchStyle?: (t: string) => string;
	searchNavigationButtonStyle?: (t: string, hovered: boolean) => string;
	scrollToEndIndicator?: () => string;
	openUrl?: (url: string) => void;
	onRightClickPaste?: () => void;
	copyOnSelect?: boolean;
	copySelection?: (text: string) => Promise<boolean | string>;
}

/** A TUI that owns a fixed viewport and accepts an explicit layout root. */
export interface ViewportTUI extends TUI {
	setLayoutRoot(component: Component | undefined): void;
}

const VIEWPORT = Symbol.for("@tau/tui/viewport");
const PI_VIEWPORT = Symbol.for("@earendil-works/pi-tui/viewport");

/**
 * Whether a TUI owns a fixed full-screen viewport (`TuiAltScreen`, or pi's equivalent) rather than scrolling output.
 */
export function isViewportTUI(tui: unknown): tui is ViewportTUI {
	return typeof tui === "object" && tui !== null && (tui as Record<symbol, unknown>)[VIEWPORT] === true;
}

const SYNC_START = "\x1b[?2026h";
const SYNC_END = "\x1b[?2026l";
const FLASH_OK_MS = 1000;
const FLASH_ERROR_MS = 5000;

/** Splits a style function into its opening and closing sequences. */
function styleParts(style: (t: string) => string): [string, string] {
	const sample = style("\u0000");
	const at = sample.indexOf("\u0000");
	return at < 0 ? [sample, ""] : [sample.slice(0, at), sample.slice(at + 1)];
}

/** The TUI's own children, as the document inside the implicit scroll view. */
class DocumentView implements Component {
	constructor(private readonly tui: TuiAltScreen) {}
	render(width: number): readonly string[] {
		return this.tui.renderChildren(width);
	}
	invalidate(): void {}
}

/** Renderer for the alternate screen: the application owns the viewport, scrolling and selection. */
export class TuiAltScreen extends TuiBase implements ViewportTUI {
	readonly mode: TuiMode = "fullscreen";
	readonly [VIEWPORT] = true;
	readonly [PI_VIEWPORT] = true;
	private readonly options: TuiAltScreenOptions;
	private layoutRoot: Component | undefined;
	private readonly documentView: ScrollView;
	private readonly frameContext = new LayoutFrameContext(() => this.requestViewRender());
	private screenLines: string[] = [];
	private previousWidth = -1;
	private previousHeight = -1;
	private active = false;
	private regions: LayoutRegion[] = [];
	private readonly pointer: AltScreenPointer;
	private readonly search = new ViewportSearch();
	private searchPanel: SearchPanel | undefined;
	private searchHandle: OverlayHandle | undefined;
	private flash: { text: string; timer: ReturnType<typeof setTimeout> } | undefined;
	private savedCapabilities = false;
	private indicatorBounds: { row: number; col: number; width: number } | undefined;

	constructor(
		terminal: Terminal,
		showHardwareCursor?: boolean,
		logDirectory?: string,
		options: TuiAltScreenOptions = {},
	) {
		super(terminal, showHardwareCursor, logDirectory);
		this.options = options;
		this.documentView = new ScrollView(new DocumentView(this), { follow: "end", primary: true });
		this.pointer = new AltScreenPointer({
			wheelScrollLines: options.wheelScrollLines,
			openUrl: options.openUrl,
			onRightClickPaste: options.onRightClickPaste,
			copyOnSelect: options.copyOnSelect,
			overlayAt: (x, y) => this.overlayAt(x, y),
			regionsAt: (x, y) => this.regionsAt(x, y),
			regionOf: (component) => this.regionOf(component),
			primaryView: () => this.primaryView(),
			indicatorBounds: () => this.indicatorBounds,
			setFocus: (component) => this.setFocus(component),
			requestRender: () => this.requestRender(),
			requestViewRender: () => this.requestViewRender(),
			copySelection: () => void this.copyActiveSelectionToClipboard(),
		});
		this.addInputListener((data) => this.handleViewportInput(data));
	}

	/** The children's lines (the implicit document). */
	renderChildren(width: number): readonly string[] {
		return super.render(width);
	}

	/** Unbounded document: the layout root's, or the children's. */
	override render(width: number): readonly string[] {
		return this.layoutRoot ? this.layoutRoot.render(width) : super.render(width);
	}

	setLayoutRoot(component: Component | undefined): void {
		this.layoutRoot = component;
		this.requestRender();
	}

	getScreenLines(): string[] {
		return [...this.screenLines];
	}

	private root(): Component {
		return this.layoutRoot ?? this.documentView;
	}

	/** The primary scroll view of the current layout. */
	primaryView(): ScrollView | undefined {
		const root = this.root();
		if (root instanceof ScrollView && root.options.primary) return root;
		for (const r of this.regions)
			if (r.component instanceof ScrollView && r.component.options.primary) return r.component;
		return undefined;
	}

	private regionOf(component: Component): LayoutRegion | undefined {
		return this.regions.find((r) => r.component === component);
	}

	// ---- lifecycle -------------------------------------------------------------------------

	protected resetRenderState(): void {
		this.screenLines = [];
		this.previousWidth = -1;
		this.previousHeight = -1;
	}

	protected preStart(): void {
		this.pointer.reset(true);
		this.resetRenderState();
		const caps = getCapabilities();
		if (caps.images === "iterm2") {
			// iTerm2 image placements can be neither cropped nor deleted during repaint.
			setCapabilities({ ...caps, images: null });
			this.savedCapabilities = true;
			this.invalidate();
		}
		const mouse = this.options.mouse === false ? "" : mouseEnableSequence();
		this.terminal.write(`\x1b[?1049h\x1b[?7l${mouse}\x1b[2J\x1b[H\x1b[?25l`);
		this.active = true;
	}

	protected preStop(): void {
		this.closeSearch();
		if (this.flash) clearTimeout(this.flash.timer);
		this.flash = undefined;
		const mouse = this.options.mouse === false ? "" : MOUSE_DISABLE;
		const images = getCapabilities().images === "kitty" ? deleteAllKittyImages() : "";
		this.terminal.write(`${SYNC_START}${images}${mouse}\x1b[?7h${SYNC_END}`);
	}

	protected postStop(preserveScreen: boolean): void {
		this.active = false;
		if (preserveScreen) this.terminal.write(`${SYNC_START}\x1b[?1049l\x1b[?25h${SYNC_END}`);
		else {
			// Leave the final document in the main screen's scrollback.
			const width = Math.max(1, this.terminal.columns);
			const lines = applyLineResets(resolveFakeCursors(stripPromptMarkers(this.render(width)), false)).map((l) =>
				!isImageLine(l) && visibleWidth(l) > width ? sliceByColumn(l, 0, width, true) : l,
			);
			const out = new OutputWriter((d) => this.terminal.write(d));
			out.append(`${SYNC_START}\x1b[?1049l\x1b[?7l`);
			lines.forEach((line, i) => {
				out.append(`${i > 0 ? "\r\n" : ""}\r\x1b[2K${line}`);
			});
			out.append(`\x1b[0m\x1b[?7h\r\n\x1b[?25h${SYNC_END}`);
			out.flush();
		}
		if (this.savedCapabilities) {
			setCapabilities(undefined);
			this.savedCapabilities = false;
		}
		this.resetRenderState();
	}

	protected exitRestoreSequences(): { before: string; after: string } {
		return {
			before: `${SYNC_END}${this.options.mouse === false ? "" : MOUSE_DISABLE}\x1b[?7h${this.exitRestorePrefix()}`,
			after: "\x1b[?1049l\x1b[?25h",
		};
	}

	// ---- viewport input --------------------------------------------------------------------

	private handleViewportInput(data: string): InputListenerResult {
		if (data === "\x1b[O") {
			this.pointer.reset(false);
			return { consume: true };
		}
		if (data === "\x1b[I") return { consume: true };
		const mouse = parseMouseReport(data);
		if (mouse) {
			this.pointer.handle(mouse);
			return { consume: true };
		}
		const kb = getKeybindings();
		if (kb.matches(data, "tui.altScreen.search")) {
			if (this.searchPanel) this.closeSearch();
			else this.openSearch();
			return { consume: true };
		}
		if (this.searchPanel && this.getFocused() === this.searchPanel) {
			if (kb.matches(data, "tui.altScreen.searchNext")) this.search.step(1);
			else if (kb.matches(data, "tui.altScreen.searchPrevious")) this.search.step(-1);
			else if (kb.matches(data, "tui.altScreen.searchClose")) this.closeSearch();
			else return undefined;
			this.requestViewRender();
			return { consume: true };
		}
		const focused = this.getFocused();
		if (focused?.capturesViewportInput || this.overlays.some((o) => o.component === focused)) return undefined;
		const view = this.primaryView();
		if (!view) return undefined;
		const page = Math.max(1, view.viewportHeight - 4);
		const half = Math.max(1, Math.floor(view.viewportHeight / 2));
		const actions: [string, () => void][] = [
			["tui.altScreen.pageUp", () => view.scrollBy(-page)],
			["tui.altScreen.pageDown", () => view.scrollBy(page)],
			["tui.altScreen.halfPageUp", () => view.scrollBy(-half)],
			["tui.altScreen.halfPageDown", () => view.scrollBy(half)],
			["tui.altScreen.lineUp", () => view.scrollBy(-1)],
			["tui.altScreen.lineDown", () => view.scrollBy(1)],
			["tui.altScreen.previousPrompt", () => this.jumpToPrompt(view, -1)],
			["tui.altScreen.nextPrompt", () => this.jumpToPrompt(view, 1)],
			["tui.altScreen.top", () => view.scrollToStart()],
			["tui.altScreen.bottom", () => view.scrollToEnd()],
		];
		for (const [action, run] of actions) {
			if (!kb.matches(data, action)) continue;
			if (!isKeyRelease(data)) {
				run();
				this.requestViewRender();
			}
			return { consume: true };
		}
		return undefined;
	}

	private jumpToPrompt(view: ScrollView, direction: 1 | -1): void {
		const lines = view.contentLines;
		const isPrompt = (i: number) => lines[i]?.startsWith("\x1b]133;A") ?? false;
		for (let i = view.scrollTop + direction; i >= 0 && i < lines.length; i += direction) {
			if (isPrompt(i)) {
				view.scrollTo(i, { disableFollow: true });
				return;
			}
		}
	}

	private openSearch(): void {
		const view = this.primaryView();
		if (!view) return;
		const panel = new SearchPanel(
			(query) => {
				this.search.setQuery(query, view);
				this.requestViewRender();
			},
			(direction) => {
				this.search.step(direction);
				this.requestViewRender();
			},
			this.options.searchNavigationButtonStyle,
		);
		this.searchPanel = panel;
		this.searchHandle = this.showOverlay(panel, { anchor: "top-right", width: "40%", minWidth: 32, margin: 1 });
	}

	private closeSearch(): void {
		this.searchHandle?.hide();
		this.searchHandle = undefined;
		this.searchPanel = undefined;
		this.search.setQuery("", this.documentView);
	}

	// ---- mouse -----------------------------------------------------------------------------

	private overlayAt(x: number, y: number) {
		let best: { component: Component; bounds: LayoutRegion } | undefined;
		let order = -1;
		for (const entry of this.overlays) {
			const b = entry.bounds;
			if (!b || !this.isEntryVisible(entry) || entry.focusOrder < order) continue;
			if (x >= b.col && x < b.col + b.width && y >= b.row && y < b.row + b.height) {
				best = { component: entry.component, bounds: { component: entry.component, ...b } };
				order = entry.focusOrder;
			}
		}
		return best;
	}

	/** Innermost first. */
	private regionsAt(x: number, y: number): LayoutRegion[] {
		return this.regions
			.filter((r) => x >= r.col && x < r.col + r.width && y >= r.row && y < r.row + r.height)
			.reverse();
	}

	hasActiveSelection(): boolean {
		return this.pointer.selection !== undefined && !this.pointer.selection.isEmpty();
	}

	resetTextSelection(): void {
		this.pointer.selection = undefined;
		this.requestViewRender();
	}

	async copyActiveSelectionToClipboard(): Promise<void> {
		const text = this.pointer.selection?.text() ?? "";
		if (!text) return;
		if (this.options.copySelection) {
			let result: boolean | string;
			try {
				result = await this.options.copySelection(text);
			} catch (error) {
				result = error instanceof Error ? error.message : String(error);
			}
			if (result === true) this.showFlash("Copied!", FLASH_OK_MS);
			else this.showFlash(typeof result === "string" ? result : "Copy failed", FLASH_ERROR_MS);
			return;
		}
		this.terminal.write(`\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`);
		this.showFlash("Copied!", FLASH_OK_MS);
	}

	private showFlash(text: string, ms: number): void {
		if (this.flash) clearTimeout(this.flash.timer);
		const timer = setTimeout(() => {
			this.flash = undefined;
			this.requestViewRender();
		}, ms);
		timer.unref?.();
		this.flash = { text, timer };
		this.requestViewRender();
	}

	// ---- frame -----------------------------------------------------------------------------

	protected doRender(): void {
		if (this.stopped || !this.active) return;
		const width = Math.max(1, this.terminal.columns);
		const height = Math.max(1, this.terminal.rows);
		const root = this.root();
		this.frameContext.beginFrame(!this.contentChanged);
		this.contentChanged = false;
		let lines = renderLayoutFrame(root, width, height, this.frameContext);
		this.regions = [...this.frameContext.regions];
		const primary = this.primaryView();
		if (this.searchPanel && primary) {
			this.search.refresh(primary);
			if (this.search.reveal(primary)) {
				this.frameContext.beginFrame(true);
				lines = renderLayoutFrame(root, width, height, this.frameContext);
				this.regions = [...this.frameContext.regions];
			}
			this.searchPanel.status = this.search.status();
		}
		let frame = resolveFakeCursors(stripPromptMarkers(lines), this.showHardwareCursor);
		frame = this.applySearchHighlights([...frame], primary);
		frame = this.applyIndicator([...frame], primary, width);
		if (this.overlays.length > 0) frame = compositeOverlays(frame, this.placeOverlays(width, height), width, height);
		const visible = frame.slice(-height);
		this.applySelection(visible);
		this.applyFlash(visible, width);
		const cursor = extractCursor(visible, height);
		const screen = applyLineResets(visible).map((l) =>
			!isImageLine(l) && visibleWidth(l) > width ? sliceByColumn(l, 0, width, true) : l,
		);
		const full = this.screenLines.length === 0 || width !== this.previousWidth || height !== this.previousHeight;
		const out = new OutputWriter((d) => this.terminal.write(d));
		out.append(SYNC_START);
		if (full) {
			// Kitty placements survive \x1b[2J; uploads are kept for re-placement.
			out.append(getCapabilities().images === "kitty" ? `${deleteKittyPlacements()}\x1b[2J` : "\x1b[2J");
			this.redrawCount++;
		}
		const changedRows: number[] = [];
		for (let row = 0; row < height; row++) {
			if (full || this.screenLines[row] !== (screen[row] ?? "")) changedRows.push(row);
		}
		// Image placements persist where they were drawn: when anything moves, remove them all and
		// draw every image again after the text, so text never paints over a fresh image.
		const imageRows = screen.map((l, row) => (isImageLine(l) ? row : -1)).filter((row) => row >= 0);
		const hadImages = this.screenLines.some(isImageLine);
		const redrawImages = changedRows.length > 0 && (imageRows.length > 0 || hadImages);
		if (redrawImages && !full && getCapabilities().images === "kitty") out.append(deleteKittyPlacements());
		for (const row of changedRows) {
			const line = screen[row] ?? "";
			out.append(`\x1b[${row + 1};1H\x1b[2K${isImageLine(line) ? "" : line}`);
		}
		if (redrawImages) for (const row of imageRows) out.append(`\x1b[${row + 1};1H${screen[row]}`);
		if (cursor) {
			out.append(`\x1b[${cursor.row + 1};${Math.min(width, cursor.col) + 1}H`);
			out.append(this.showHardwareCursor ? "\x1b[?25h" : "\x1b[?25l");
		} else out.append("\x1b[?25l");
		out.append(SYNC_END);
		out.flush();
		this.screenLines = screen;
		this.previousWidth = width;
		this.previousHeight = height;
	}

	private applySearchHighlights(lines: string[], view: ScrollView | undefined): string[] {
		if (!this.searchPanel || !view) return lines;
		const region = this.regionOf(view);
		if (!region) return lines;
		const [mOpen, mClose] = styleParts(this.options.searchMatchStyle ?? ((t) => `\x1b[4m${t}\x1b[24m`));
		const [cOpen, cClose] = styleParts(this.options.searchCurrentMatchStyle ?? ((t) => `\x1b[1;7m${t}\x1b[22;27m`));
		const limit = view.contentWidth(region.width);
		this.search.matches.forEach((m, i) => {
			const [open, close] = i === this.search.current ? [cOpen, cClose] : [mOpen, mClose];
			for (let row = m.startRow; row <= m.endRow; row++) {
				const screenRow = region.row + row - view.scrollTop;
				if (screenRow < region.row || screenRow >= region.row + region.height) continue;
				const start = row === m.startRow ? m.startCol : 0;
				const end = Math.min(limit, row === m.endRow ? m.endCol : limit);
				lines[screenRow] = highlightColumns(lines[screenRow]!, region.col + start, region.col + end, open, close);
			}
		});
		return lines;
	}

	private applyIndicator(lines: string[], view: ScrollView | undefined, width: number): string[] {
		this.indicatorBounds = undefined;
		if (view?.options.follow !== "end" || view.isFollowingEnd || view.contentHeight <= view.viewportHeight)
			return lines;
		const region = this.regionOf(view);
		if (!region) return lines;
		const label = this.options.scrollToEndIndicator?.() ?? "\x1b[7m ↓ Jump to latest \x1b[27m";
		const labelWidth = visibleWidth(label);
		const usable = view.contentWidth(region.width);
		if (labelWidth > usable) return lines;
		const row = region.row + region.height - 1;
		const col = region.col + Math.floor((usable - labelWidth) / 2);
		lines[row] = compositeTuiLine(lines[row] ?? "", label, col, labelWidth, width);
		this.indicatorBounds = { row, col, width: labelWidth };
		return lines;
	}

	private applySelection(lines: string[]): void {
		const sel = this.pointer.selection;
		if (!sel || sel.isEmpty()) return;
		const region = this.regionOf(sel.view);
		if (!region) return;
		for (let i = 0; i < region.height; i++) {
			const span = sel.columnsOn(sel.view.scrollTop + i);
			const screenRow = region.row + i;
			if (!span || lines[screenRow] === undefined) continue;
			const end = Math.min(region.col + region.width, region.col + span.end);
			lines[screenRow] = highlightColumns(lines[screenRow]!, region.col + span.start, end, "\x1b[7m", "\x1b[27m");
		}
	}

	private applyFlash(lines: string[], width: number): void {
		if (!this.flash || lines.length === 0) return;
		const label = `\x1b[7m ${this.flash.text} \x1b[27m`;
		const w = visibleWidth(label);
		if (w > width) return;
		lines[0] = compositeTuiLine(lines[0] ?? "", label, width - w, w, width);
	}
}
