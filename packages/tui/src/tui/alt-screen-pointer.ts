import type { LayoutRegion } from "../layout/layout-frame.js";
import { ScrollView } from "../layout/scroll-view.js";
import { getOsc8LinkAtColumn } from "../text/segments.js";
import type { Component, TuiMouseEvent, TuiMouseEventResult } from "./component.js";
import type { MouseReport } from "./mouse.js";
import { TextSelection } from "./selection.js";

const CLICK_INTERVAL_MS = 500;

/** What the pointer needs from the alternate-screen renderer: its layout, focus and redraws. */
export interface PointerHost {
	wheelScrollLines?: number | "auto";
	openUrl?: (url: string) => void;
	onRightClickPaste?: () => void;
	copyOnSelect?: boolean;
	overlayAt(x: number, y: number): { component: Component; bounds: LayoutRegion } | undefined;
	/** Regions under a cell, innermost first. */
	regionsAt(x: number, y: number): LayoutRegion[];
	regionOf(component: Component): LayoutRegion | undefined;
	primaryView(): ScrollView | undefined;
	/** Where the "jump to latest" label was drawn in the last frame. */
	indicatorBounds(): { row: number; col: number; width: number } | undefined;
	setFocus(component: Component): void;
	requestRender(): void;
	requestViewRender(): void;
	copySelection(): void;
}

/**
 * Mouse reports on the alternate screen: dispatch to overlays and components (press, drag,
 * release, click, hover, wheel), scroll views and their scrollbars, and text selection.
 */
export class AltScreenPointer {
	selection: TextSelection | undefined;
	private press: { x: number; y: number; moved: boolean; component?: Component; region?: LayoutRegion } | undefined;
	private captured: Component | undefined;
	private lastClick: { x: number; y: number; at: number; count: number } | undefined;
	private lastWheelAt = 0;
	private wheelStreak = 0;
	private scrollbarDrag: { view: ScrollView; region: LayoutRegion; grab: number } | undefined;

	constructor(private readonly host: PointerHost) {}

	/** Forgets presses and drags in progress (focus lost, renderer restarted). */
	reset(clearSelection: boolean): void {
		this.press = undefined;
		this.captured = undefined;
		this.scrollbarDrag = undefined;
		if (clearSelection) this.selection = undefined;
	}

	handle(r: MouseReport): void {
		if (r.wheel) this.handleWheel(r);
		else if (r.release) this.handleRelease(r);
		else if (r.motion) this.handleMotion(r);
		else this.handlePress(r);
	}

	private wheelLines(): number {
		const setting = this.host.wheelScrollLines ?? 1;
		if (typeof setting === "number") return setting;
		// "auto": local macOS terminals already accelerate; elsewhere fast spins speed up to 6 lines.
		if (process.platform === "darwin" && !process.env.SSH_CONNECTION && !process.env.SSH_TTY) return 1;
		const now = Date.now();
		this.wheelStreak = now - this.lastWheelAt < 50 ? Math.min(6, this.wheelStreak + 1) : 1;
		this.lastWheelAt = now;
		return this.wheelStreak;
	}

	private event(
		r: MouseReport,
		type: TuiMouseEvent["type"],
		region: { row: number; col: number; width: number; height: number },
	) {
		return {
			type,
			button: r.button,
			x: r.x - region.col,
			y: r.y - region.row,
			screenX: r.x,
			screenY: r.y,
			width: region.width,
			height: region.height,
			shift: r.shift,
			alt: r.alt,
			ctrl: r.ctrl,
		} satisfies TuiMouseEvent;
	}

	private applyResult(component: Component, result: TuiMouseEventResult | undefined, type: string): boolean {
		if (!result) return false;
		if (result.focus) this.host.setFocus(component);
		if (result.render ?? (type !== "move" && type !== "release")) this.host.requestRender();
		return !!(result.handled || result.capture || result.focus);
	}

	private handleWheel(r: MouseReport): void {
		const lines = this.wheelLines() * (r.alt ? 5 : 1);
		const delta = r.wheel === "up" ? -lines : lines;
		const dispatch = (component: Component, region: LayoutRegion) => {
			const event = { ...this.event(r, "wheel", region), wheelDelta: delta };
			return this.applyResult(component, component.handleMouse?.(event), "wheel");
		};
		const overlay = this.host.overlayAt(r.x, r.y);
		if (overlay) {
			dispatch(overlay.component, overlay.bounds);
			return;
		}
		const under = this.host.regionsAt(r.x, r.y);
		for (const region of under) {
			if (region.component instanceof ScrollView) continue;
			if (region.component.handleMouse && dispatch(region.component, region)) return;
		}
		// Innermost view first; unused delta chains outward and finally to the primary view.
		let remaining = delta;
		const primary = this.host.primaryView();
		let reachedPrimary = false;
		for (const region of under) {
			if (!(region.component instanceof ScrollView)) continue;
			if (region.component === primary) reachedPrimary = true;
			remaining = region.component.scrollBy(remaining);
			if (region.component.options.overscroll === "contain") remaining = 0;
			if (remaining === 0) break;
		}
		if (remaining !== 0 && !reachedPrimary) primary?.scrollBy(remaining);
		this.host.requestViewRender();
	}

	private viewAt(x: number, y: number): { view: ScrollView; region: LayoutRegion } | undefined {
		for (const region of this.host.regionsAt(x, y))
			if (region.component instanceof ScrollView) return { view: region.component, region };
		const primary = this.host.primaryView();
		const region = primary && this.host.regionOf(primary);
		return primary && region ? { view: primary, region } : undefined;
	}

	private contentPoint(view: ScrollView, region: LayoutRegion, x: number, y: number) {
		const row = Math.max(0, Math.min(region.height - 1, y - region.row)) + view.scrollTop;
		return { row, col: Math.max(0, x - region.col) };
	}

	private handlePress(r: MouseReport): void {
		const overlay = this.host.overlayAt(r.x, r.y);
		if (overlay) {
			this.applyResult(
				overlay.component,
				overlay.component.handleMouse?.(this.event(r, "press", overlay.bounds)),
				"press",
			);
			this.press = { x: r.x, y: r.y, moved: false, component: overlay.component, region: overlay.bounds };
			return;
		}
		if (this.pressScrollbar(r)) return;
		const ind = this.host.indicatorBounds();
		if (ind && r.y === ind.row && r.x >= ind.col && r.x < ind.col + ind.width) {
			this.host.primaryView()?.scrollToEnd();
			this.host.requestViewRender();
			return;
		}
		for (const region of this.host.regionsAt(r.x, r.y)) {
			const c = region.component;
			if (c instanceof ScrollView || !c.handleMouse) continue;
			const result = c.handleMouse(this.event(r, "press", region));
			if (this.applyResult(c, result, "press")) {
				this.captured = c;
				this.press = { x: r.x, y: r.y, moved: false, component: c, region };
				return;
			}
		}
		if (r.button === "right" && process.platform === "win32" && process.env.TERM_PROGRAM !== "vscode") {
			this.host.onRightClickPaste?.();
			return;
		}
		if (r.button !== "left") return;
		const target = this.viewAt(r.x, r.y);
		if (!target) return;
		const now = Date.now();
		const last = this.lastClick;
		const count =
			last && last.x === r.x && last.y === r.y && now - last.at < CLICK_INTERVAL_MS ? (last.count % 3) + 1 : 1;
		this.lastClick = { x: r.x, y: r.y, at: now, count };
		const mode = count === 3 ? "line" : count === 2 ? "word" : "char";
		this.selection = new TextSelection(target.view, this.contentPoint(target.view, target.region, r.x, r.y), mode);
		this.press = { x: r.x, y: r.y, moved: false, region: target.region };
		this.host.requestViewRender();
	}

	/** Pointer movement without a button: `move` to the overlay or innermost component under it. */
	private hover(r: MouseReport): void {
		const overlay = this.host.overlayAt(r.x, r.y);
		if (overlay) {
			this.applyResult(
				overlay.component,
				overlay.component.handleMouse?.(this.event(r, "move", overlay.bounds)),
				"move",
			);
			return;
		}
		for (const region of this.host.regionsAt(r.x, r.y)) {
			const c = region.component;
			if (c instanceof ScrollView || !c.handleMouse) continue;
			if (this.applyResult(c, c.handleMouse(this.event(r, "move", region)), "move")) return;
		}
	}

	/** A press on a scroll view's scrollbar: on the thumb starts a drag, on the track jumps there. */
	private pressScrollbar(r: MouseReport): boolean {
		for (const region of this.host.regionsAt(r.x, r.y)) {
			const view = region.component;
			if (!(view instanceof ScrollView) || r.x !== region.col + region.width - 1) continue;
			const thumb = view.scrollbarThumb();
			if (!thumb) continue;
			const row = r.y - region.row;
			const onThumb = row >= thumb.top && row < thumb.top + thumb.size;
			const grab = onThumb ? row - thumb.top : Math.floor(thumb.size / 2);
			if (!onThumb) view.scrollToThumb(row - grab);
			this.scrollbarDrag = { view, region, grab };
			this.host.requestViewRender();
			return true;
		}
		return false;
	}

	private handleMotion(r: MouseReport): void {
		const drag = this.scrollbarDrag;
		if (drag && r.button !== "none") {
			drag.view.scrollToThumb(r.y - drag.region.row - drag.grab);
			this.host.requestViewRender();
			return;
		}
		const press = this.press;
		if (!press || r.button === "none") {
			this.hover(r);
			return;
		}
		if (r.x !== press.x || r.y !== press.y) press.moved = true;
		if (this.captured && press.region) {
			this.applyResult(this.captured, this.captured.handleMouse?.(this.event(r, "drag", press.region)), "drag");
			return;
		}
		const sel = this.selection;
		if (!sel || !press.region) return;
		const region = press.region;
		// Holding the drag at the edge scrolls and extends into off-screen content.
		if (r.y <= region.row && sel.view.scrollTop > 0) sel.view.scrollBy(-1);
		else if (r.y >= region.row + region.height - 1) sel.view.scrollBy(1);
		sel.extend(this.contentPoint(sel.view, region, r.x, r.y));
		this.host.requestViewRender();
	}

	private handleRelease(r: MouseReport): void {
		if (this.scrollbarDrag) {
			this.scrollbarDrag = undefined;
			return;
		}
		const press = this.press;
		this.press = undefined;
		const captured = this.captured ?? press?.component;
		this.captured = undefined;
		if (captured && press?.region) {
			this.applyResult(captured, captured.handleMouse?.(this.event(r, "release", press.region)), "release");
			if (!press.moved)
				this.applyResult(
					captured,
					captured.handleMouse?.({
						...this.event(r, "click", press.region),
						clickCount: this.lastClick?.count ?? 1,
					}),
					"click",
				);
			return;
		}
		const sel = this.selection;
		if (!sel || !press) return;
		// Press and release on one cell without a drag is a click for the component under it
		// (the editor places its cursor so); components leave press/drag to text selection.
		if (!press.moved && this.clickComponentAt(r)) {
			this.selection = undefined;
			this.host.requestViewRender();
			return;
		}
		if (!press.moved && sel.mode === "char") {
			const line = sel.view.contentLines[sel.anchor.row] ?? "";
			const url = getOsc8LinkAtColumn(line, sel.anchor.col);
			if (url) this.host.openUrl?.(url);
			this.selection = undefined;
			this.host.requestViewRender();
			return;
		}
		if (this.host.copyOnSelect !== false) this.host.copySelection();
	}

	private clickComponentAt(r: MouseReport): boolean {
		for (const region of this.host.regionsAt(r.x, r.y)) {
			const c = region.component;
			if (c instanceof ScrollView || !c.handleMouse) continue;
			const event = { ...this.event(r, "click", region), clickCount: this.lastClick?.count ?? 1 };
			if (this.applyResult(c, c.handleMouse(event), "click")) return true;
		}
		return false;
	}
}
