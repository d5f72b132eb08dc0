import { getCapabilities } from "../capabilities/capabilities.js";
import { setCellDimensions } from "../capabilities/cell-size.js";
import { matchesKey } from "../keys/match-key.js";
import { isKeyRelease } from "../keys/parse-key.js";
import type { Terminal } from "../terminal/terminal.js";
import { type Component, isFocusable } from "./component.js";
import { Container } from "./container.js";
import { resolveFakeCursors } from "./frame.js";
import type { OverlayBounds, OverlayOptions, PlacedOverlay } from "./overlay-layout.js";
import { placeOverlay } from "./overlay-layout.js";
import {
	parseTerminalColorSchemeReport,
	TerminalColorQueries,
	type TerminalColorScheme,
	type TerminalColors,
} from "./terminal-colors.js";

/** The shortest time between two frames; renders requested sooner are coalesced. */
export const MIN_RENDER_INTERVAL_MS = 16;
/** Paced frames leave the renderer at least this many times a frame's cost for input and other work. */
const FRAME_COST_FACTOR = 2;

/**
 * How the TUI draws: on the normal screen, scrolling with the shell's output (`regular`), or on the alternate screen
 * (`fullscreen`).
 */
export type TuiMode = "regular" | "fullscreen";
/**
 * What an input listener returns: `consume` stops the input, `data` replaces it for the next listener, and
 * `undefined` passes it on unchanged.
 */
export type InputListenerResult = { consume?: boolean; data?: string } | undefined;
/** Sees raw terminal input before the focused component; can consume it or hand on changed data. */
export type InputListener = (data: string) => InputListenerResult;

/** Controls a shown overlay: hide or show it, move focus to or from it, and read where it was drawn. */
export interface OverlayHandle {
	hide(): void;
	setHidden(hidden: boolean): void;
	isHidden(): boolean;
	focus(): void;
	unfocus(options?: { target: Component | null }): void;
	isFocused(): boolean;
	getBounds(): OverlayBounds | undefined;
}

interface OverlayEntry {
	component: Component;
	options: OverlayOptions;
	preFocus: Component | null;
	hidden: boolean;
	focusOrder: number;
	bounds: OverlayBounds | undefined;
}

/** The application's view of a renderer; choose `TuiMainScreen` or `TuiAltScreen` at construction. */
export interface TUI extends Component {
	readonly mode: TuiMode;
	children: Component[];
	terminal: Terminal;
	onDebug?: () => void;
	readonly fullRedraws: number;
	addChild(c: Component): void;
	removeChild(c: Component): void;
	clear(): void;
	getShowHardwareCursor(): boolean;
	setShowHardwareCursor(on: boolean): void;
	getClearOnShrink(): boolean;
	setClearOnShrink(on: boolean): void;
	setFocus(c: Component | null): void;
	showOverlay(c: Component, options?: OverlayOptions): OverlayHandle;
	hideOverlay(): void;
	hasOverlay(): boolean;
	start(): void;
	stop(options?: { preserveScreen?: boolean }): void;
	renderNow(force?: boolean): void;
	requestRender(force?: boolean): void;
	/**
	 * Runs `apply` right before the next paced frame; a later call with the same key replaces it.
	 * For streamed content: one update per frame however fast it arrives, and frames drawn for
	 * keyboard input do not wait for it.
	 */
	deferUpdate(key: unknown, apply: () => void): void;
	/** Runs the deferred update of `key` now, if any (before showing a final state). */
	flushUpdate(key: unknown): void;
	addInputListener(listener: InputListener): () => void;
	removeInputListener(listener: InputListener): void;
	onTerminalColorSchemeChange(listener: (scheme: TerminalColorScheme) => void): () => void;
	setTerminalColorSchemeNotifications(enabled: boolean): void;
	setSuspendSignalHandler(handler: (() => void) | undefined): void;
	queryTerminalColors(options: {
		timeoutMs: number;
		onLateReply?: (colors: TerminalColors) => void;
	}): Promise<TerminalColors>;
}

/** Signals whose default action ends the process without an `exit` event (SIGINT only from outside: raw mode reads Ctrl+C as a key). */
const RESTORING_SIGNALS: NodeJS.Signals[] = ["SIGTERM", "SIGHUP", "SIGINT"];
const CELL_SIZE_REPLY = /^\x1b\[6;(\d+);(\d+)t$/;

/** Scheduling, input dispatch, focus and overlays shared by both renderers. */
export abstract class TuiBase extends Container implements TUI {
	abstract readonly mode: TuiMode;
	onDebug?: () => void;
	protected stopped = true;
	protected showHardwareCursor: boolean;
	protected clearOnShrink = process.env.TAU_CLEAR_ON_SHRINK === "1";
	protected contentChanged = true;
	protected focusedComponent: Component | null = null;
	protected overlays: OverlayEntry[] = [];
	protected redrawCount = 0;
	private focusCounter = 0;
	private inputListeners: InputListener[] = [];
	private schemeListeners: ((scheme: TerminalColorScheme) => void)[] = [];
	private schemeNotifications = false;
	private colorQueries = new TerminalColorQueries();
	private renderRequested = false;
	private renderTimer: ReturnType<typeof setTimeout> | undefined;
	private lastRenderAt = 0;
	/** How long the last frame took to draw (ms). */
	private lastRenderCost = 0;
	private deferred = new Map<unknown, () => void>();
	private immediateScheduled = false;
	private exitHandler: (() => void) | undefined;
	private suspendHandler: (() => void) | undefined;
	private suspendListening = false;
	/** A component that borrowed focus from a visible overlay, and the overlay to return to. */
	private focusLoan: { holder: Component; overlay: OverlayEntry } | undefined;

	constructor(
		public terminal: Terminal,
		showHardwareCursor = false,
		protected readonly logDirectory?: string,
	) {
		super();
		this.showHardwareCursor = showHardwareCursor || process.env.TAU_HARDWARE_CURSOR === "1";
	}

	get fullRedraws(): number {
		return this.redrawCount;
	}

	/** Renders the current state to the terminal. */
	protected abstract doRender(): void;
	/** Forgets what is on screen so the next frame is a full redraw. */
	protected abstract resetRenderState(): void;
	protected abstract preStart(): void;
	protected abstract preStop(preserveScreen: boolean): void;
	protected abstract postStop(preserveScreen: boolean): void;
	/** Sequences the exit handler writes before and after the terminal's own restore. */
	protected abstract exitRestoreSequences(): { before: string; after: string };

	getShowHardwareCursor(): boolean {
		return this.showHardwareCursor;
	}

	setShowHardwareCursor(on: boolean): void {
		if (this.showHardwareCursor === on) return;
		this.showHardwareCursor = on;
		if (!on && !this.stopped) this.terminal.hideCursor();
		this.requestRender();
	}

	getClearOnShrink(): boolean {
		return this.clearOnShrink;
	}

	setClearOnShrink(on: boolean): void {
		this.clearOnShrink = on;
	}

	// ---- lifecycle -------------------------------------------------------------------------

	start(): void {
		this.stopped = false;
		this.exitHandler = () => {
			try {
				const { before, after } = this.exitRestoreSequences();
				this.terminal.restoreOnExit?.(before, after);
			} catch {
				// Last-resort path: nothing useful can be done with an error while exiting.
			}
		};
		process.on("exit", this.exitHandler);
		for (const signal of RESTORING_SIGNALS) process.on(signal, this.onFatalSignal);
		this.updateSuspendListener();
		this.preStart();
		this.terminal.start(
			(data) => this.handleTerminalInput(data),
			() => this.requestRender(),
		);
		this.terminal.hideCursor();
		if (this.schemeNotifications) this.terminal.write("\x1b[?2031h");
		if (getCapabilities().images) this.terminal.write("\x1b[16t");
		this.requestRender();
	}

	stop(options: { preserveScreen?: boolean } = {}): void {
		if (this.stopped) return;
		this.stopped = true;
		if (this.exitHandler) process.off("exit", this.exitHandler);
		this.exitHandler = undefined;
		for (const signal of RESTORING_SIGNALS) process.off(signal, this.onFatalSignal);
		if (this.renderTimer) clearTimeout(this.renderTimer);
		this.renderTimer = undefined;
		this.renderRequested = false;
		if (this.schemeNotifications) this.terminal.write("\x1b[?2031l");
		const preserve = options.preserveScreen ?? false;
		this.preStop(preserve);
		this.terminal.showCursor();
		this.terminal.stop();
		this.postStop(preserve);
		this.updateSuspendListener();
	}

	/**
	 * A terminating signal skips the `exit` event: restore synchronously, then re-raise the signal
	 * with our listener removed so the default action (or the application's handler) still applies.
	 */
	private readonly onFatalSignal = (signal: NodeJS.Signals) => {
		this.exitHandler?.();
		for (const s of RESTORING_SIGNALS) process.off(s, this.onFatalSignal);
		if (this.exitHandler) process.off("exit", this.exitHandler);
		this.exitHandler = undefined;
		if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
	};

	protected exitRestorePrefix(): string {
		return (this.schemeNotifications ? "\x1b[?2031l" : "") + "\x1b[?25h";
	}

	setSuspendSignalHandler(handler: (() => void) | undefined): void {
		this.suspendHandler = handler;
		this.updateSuspendListener();
	}

	private readonly onSuspendSignal = () => this.suspendHandler?.();

	private updateSuspendListener(): void {
		const want = !this.stopped && this.suspendHandler !== undefined;
		if (want === this.suspendListening) return;
		if (want) process.on("SIGTSTP", this.onSuspendSignal);
		else process.off("SIGTSTP", this.onSuspendSignal);
		this.suspendListening = want;
	}

	// ---- scheduling ------------------------------------------------------------------------

	requestRender(force = false): void {
		if (force) {
			this.resetRenderState();
			this.requestImmediateRender();
			return;
		}
		this.contentChanged = true;
		this.requestViewRender();
	}

	/** Schedules a frame without marking content as changed (scroll-only changes). */
	requestViewRender(): void {
		if (this.renderRequested) return;
		this.renderRequested = true;
		process.nextTick(() => this.scheduleRender());
	}

	private scheduleRender(): void {
		if (this.stopped || this.renderTimer || !this.renderRequested) return;
		const interval = Math.max(MIN_RENDER_INTERVAL_MS, FRAME_COST_FACTOR * this.lastRenderCost);
		const delay = Math.max(0, interval - (Date.now() - this.lastRenderAt));
		this.renderTimer = setTimeout(() => {
			this.renderTimer = undefined;
			if (this.stopped || !this.renderRequested) return;
			this.renderRequested = false;
			this.applyDeferred();
			this.timedRender();
			if (this.renderRequested) this.scheduleRender();
		}, delay);
	}

	private timedRender(): void {
		// Date.now, like the throttle itself: tests that fake the clock get fixed pacing.
		this.lastRenderAt = Date.now();
		this.doRender();
		this.lastRenderCost = Date.now() - this.lastRenderAt;
	}

	/** Input must not wait for the frame throttle, nor for deferred updates: render on the next tick. */
	protected requestImmediateRender(): void {
		this.contentChanged = true;
		if (this.renderTimer) clearTimeout(this.renderTimer);
		this.renderTimer = undefined;
		this.renderRequested = true;
		if (this.immediateScheduled) return;
		this.immediateScheduled = true;
		process.nextTick(() => {
			this.immediateScheduled = false;
			if (this.stopped || !this.renderRequested) return;
			if (this.renderTimer) clearTimeout(this.renderTimer);
			this.renderTimer = undefined;
			this.renderRequested = false;
			this.timedRender();
			// Streamed content that was waiting gets the next paced frame.
			if (this.deferred.size > 0) {
				this.renderRequested = true;
				this.scheduleRender();
			}
		});
	}

	deferUpdate(key: unknown, apply: () => void): void {
		this.deferred.set(key, apply);
		this.requestRender();
	}

	flushUpdate(key: unknown): void {
		const apply = this.deferred.get(key);
		if (!apply) return;
		this.deferred.delete(key);
		apply();
	}

	private applyDeferred(): void {
		if (this.deferred.size === 0) return;
		const updates = [...this.deferred.values()];
		this.deferred.clear();
		for (const apply of updates) apply();
	}

	renderNow(force = false): void {
		if (force) this.resetRenderState();
		this.contentChanged = true;
		this.applyDeferred();
		this.doRender();
	}

	// ---- input -----------------------------------------------------------------------------

	addInputListener(listener: InputListener): () => void {
		this.inputListeners.push(listener);
		return () => this.removeInputListener(listener);
	}

	removeInputListener(listener: InputListener): void {
		const i = this.inputListeners.indexOf(listener);
		if (i >= 0) this.inputListeners.splice(i, 1);
	}

	onTerminalColorSchemeChange(listener: (scheme: TerminalColorScheme) => void): () => void {
		this.schemeListeners.push(listener);
		return () => {
			this.schemeListeners = this.schemeListeners.filter((l) => l !== listener);
		};
	}

	setTerminalColorSchemeNotifications(enabled: boolean): void {
		if (this.schemeNotifications === enabled) return;
		this.schemeNotifications = enabled;
		if (!this.stopped) this.terminal.write(enabled ? "\x1b[?2031h" : "\x1b[?2031l");
	}

	queryTerminalColors(options: {
		timeoutMs: number;
		onLateReply?: (colors: TerminalColors) => void;
	}): Promise<TerminalColors> {
		return this.colorQueries.start((d) => this.terminal.write(d), options.timeoutMs, options.onLateReply);
	}

	protected handleTerminalInput(input: string): void {
		let data = input;
		if (this.colorQueries.hasPending() && this.colorQueries.handle(data)) return;
		const scheme = parseTerminalColorSchemeReport(data);
		if (scheme) {
			for (const l of [...this.schemeListeners]) l(scheme);
			return;
		}
		for (const listener of [...this.inputListeners]) {
			const result = listener(data);
			if (result?.consume) return;
			if (result?.data !== undefined) data = result.data;
			if (data.length === 0) return;
		}
		const cell = CELL_SIZE_REPLY.exec(data);
		if (cell) {
			const heightPx = Number(cell[1]);
			const widthPx = Number(cell[2]);
			if (heightPx > 0 && widthPx > 0) {
				setCellDimensions({ widthPx, heightPx });
				this.invalidate();
				this.requestRender();
			}
			return;
		}
		if (this.onDebug && matchesKey(data, "shift+ctrl+d")) {
			this.onDebug();
			return;
		}
		this.restoreOverlayFocus();
		const target = this.focusedComponent;
		if (target?.handleInput) {
			if (isKeyRelease(data) && !target.wantsKeyRelease) return;
			target.handleInput(data);
			this.requestImmediateRender();
		}
	}

	// ---- focus and overlays ----------------------------------------------------------------

	getFocused(): Component | null {
		return this.focusedComponent;
	}

	setFocus(component: Component | null): void {
		const loan = this.focusLoan;
		if (component === null && loan && this.focusedComponent === loan.holder) {
			this.focusLoan = undefined;
			if (this.isEntryVisible(loan.overlay)) {
				this.applyFocus(loan.overlay.component);
				return;
			}
		}
		const current = this.entryOf(this.focusedComponent);
		if (
			component &&
			current &&
			this.isEntryVisible(current) &&
			!this.entryOf(component) &&
			!this.isPreFocusOf(component, current)
		) {
			this.focusLoan = { holder: component, overlay: current };
		} else if (component !== loan?.holder) {
			this.focusLoan = undefined;
		}
		this.applyFocus(component);
	}

	private applyFocus(component: Component | null): void {
		if (this.focusedComponent && isFocusable(this.focusedComponent)) this.focusedComponent.focused = false;
		this.focusedComponent = component;
		if (component && isFocusable(component)) component.focused = true;
		this.contentChanged = true;
		this.requestRender();
	}

	private isPreFocusOf(component: Component, entry: OverlayEntry): boolean {
		let pre: Component | null = entry.preFocus;
		const seen = new Set<Component>();
		while (pre && !seen.has(pre)) {
			if (pre === component) return true;
			seen.add(pre);
			pre = this.entryOf(pre)?.preFocus ?? null;
		}
		return false;
	}

	private entryOf(component: Component | null): OverlayEntry | undefined {
		return component ? this.overlays.find((e) => e.component === component) : undefined;
	}

	protected isEntryVisible(entry: OverlayEntry): boolean {
		if (entry.hidden || !this.overlays.includes(entry)) return false;
		return entry.options.visible ? entry.options.visible(this.terminal.columns, this.terminal.rows) : true;
	}

	private topmostCapturing(except?: OverlayEntry): OverlayEntry | undefined {
		let best: OverlayEntry | undefined;
		for (const e of this.overlays) {
			if (e === except || e.options.nonCapturing || !this.isEntryVisible(e)) continue;
			if (!best || e.focusOrder > best.focusOrder) best = e;
		}
		return best;
	}

	/** Moves focus away from `entry`: to the topmost other capturing overlay, or its preFocus. */
	private releaseFocus(entry: OverlayEntry): void {
		const next = this.topmostCapturing(entry);
		this.applyFocus(next ? next.component : entry.preFocus);
	}

	/** Input-time checks: an invisible focused overlay gives focus away; a loan returns to its overlay. */
	private restoreOverlayFocus(): void {
		const focusedEntry = this.entryOf(this.focusedComponent);
		if (focusedEntry && !this.isEntryVisible(focusedEntry)) this.releaseFocus(focusedEntry);
		const loan = this.focusLoan;
		if (loan && this.focusedComponent !== loan.holder) {
			this.focusLoan = undefined;
			if (this.isEntryVisible(loan.overlay)) this.applyFocus(loan.overlay.component);
		}
	}

	showOverlay(component: Component, options: OverlayOptions = {}): OverlayHandle {
		const entry: OverlayEntry = {
			component,
			options,
			preFocus: this.focusedComponent,
			hidden: false,
			focusOrder: ++this.focusCounter,
			bounds: undefined,
		};
		this.overlays.push(entry);
		if (!options.nonCapturing && this.isEntryVisible(entry)) this.applyFocus(component);
		if (!this.stopped) this.terminal.hideCursor();
		this.requestRender();
		return {
			hide: () => this.removeOverlay(entry),
			setHidden: (hidden) => this.setOverlayHidden(entry, hidden),
			isHidden: () => entry.hidden,
			focus: () => {
				if (!this.isEntryVisible(entry)) return;
				entry.focusOrder = ++this.focusCounter;
				this.applyFocus(entry.component);
			},
			unfocus: (opts) => {
				if (this.focusedComponent !== entry.component) return;
				if (opts) this.applyFocus(opts.target);
				else this.releaseFocus(entry);
			},
			isFocused: () => this.focusedComponent === entry.component,
			getBounds: () => (this.isEntryVisible(entry) ? entry.bounds : undefined),
		};
	}

	private removeOverlay(entry: OverlayEntry): void {
		const index = this.overlays.indexOf(entry);
		if (index < 0) return;
		const hadFocus = this.focusedComponent === entry.component;
		this.overlays.splice(index, 1);
		for (const other of this.overlays) if (other.preFocus === entry.component) other.preFocus = entry.preFocus;
		if (this.focusLoan?.overlay === entry) this.focusLoan = undefined;
		if (hadFocus) this.releaseFocus(entry);
		this.requestRender();
	}

	private setOverlayHidden(entry: OverlayEntry, hidden: boolean): void {
		if (entry.hidden === hidden) return;
		if (hidden) {
			const hadFocus = this.focusedComponent === entry.component;
			entry.hidden = true;
			if (hadFocus) this.releaseFocus(entry);
		} else {
			entry.hidden = false;
			entry.focusOrder = ++this.focusCounter;
			if (!entry.options.nonCapturing && this.isEntryVisible(entry)) this.applyFocus(entry.component);
		}
		this.requestRender();
	}

	hideOverlay(): void {
		let top: OverlayEntry | undefined;
		for (const e of this.overlays) if (!top || e.focusOrder > top.focusOrder) top = e;
		if (top) this.removeOverlay(top);
	}

	hasOverlay(): boolean {
		return this.overlays.some((e) => this.isEntryVisible(e));
	}

	/** Lays out and renders every visible overlay for this frame, bottom first. */
	protected placeOverlays(width: number, height: number): PlacedOverlay[] {
		const placed: PlacedOverlay[] = [];
		for (const entry of [...this.overlays].sort((a, b) => a.focusOrder - b.focusOrder)) {
			if (!this.isEntryVisible(entry)) {
				entry.bounds = undefined;
				continue;
			}
			const p = placeOverlay(entry.component, entry.options, width, height);
			entry.bounds = { row: p.row, col: p.col, width: p.width, height: p.height };
			// Overlay lines skip the frame's own fake-cursor pass; their markers must not reach the terminal.
			placed.push({ ...p, lines: resolveFakeCursors(p.lines, this.showHardwareCursor) });
		}
		return placed;
	}
}
