import type { Component, TuiMouseEvent, TuiMouseEventResult } from "../tui/component.js";
import { type BoxComponent, fitBox, type LayoutFrameContext } from "./layout-frame.js";

/** Options of `ScrollView`: whether it follows new content, takes viewport keys and passes scrolling on at its ends. */
export interface ScrollViewOptions {
	follow?: "none" | "end";
	/** The view that receives viewport keys and unclaimed wheel input. */
	primary?: boolean;
	overscroll?: "chain" | "contain";
	scrollbar?: "hidden" | "auto" | "always";
	scrollbarTrackStyle?: (text: string) => string;
	scrollbarThumbStyle?: (text: string) => string;
	scrollbarHideDelayMs?: number;
}

/** A window onto one child's lines; keeps following the end while the user is at the bottom. */
export class ScrollView implements BoxComponent {
	scrollTop = 0;
	isFollowingEnd: boolean;
	viewportHeight = 0;
	contentHeight = 0;
	/** Lines of the child from the last frame (content coordinates). */
	contentLines: readonly string[] = [];
	readonly options: ScrollViewOptions;
	private scrollbarVisibleUntil = 0;
	private hideTimer: ReturnType<typeof setTimeout> | undefined;
	private requestRender: (() => void) | undefined;

	constructor(
		readonly child: Component,
		options: ScrollViewOptions = {},
	) {
		this.options = options;
		this.isFollowingEnd = options.follow === "end";
	}

	addChild(): never {
		throw new Error("ScrollView has exactly one child");
	}
	removeChild(): never {
		throw new Error("ScrollView has exactly one child");
	}
	clear(): never {
		throw new Error("ScrollView has exactly one child");
	}

	invalidate(): void {
		this.child.invalidate();
	}

	/** Unbounded document (exit dump, debugging). */
	render(width: number): readonly string[] {
		return this.child.render(width);
	}

	handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
		return this.child.handleMouse?.({ ...event, y: event.y + this.scrollTop, height: this.contentHeight });
	}

	intrinsicHeight(width: number, ctx: LayoutFrameContext): number {
		return ctx.renderComponent(this.child, width).length;
	}

	private maxScroll(): number {
		return Math.max(0, this.contentHeight - this.viewportHeight);
	}

	/** Called by the layout engine every frame. */
	updateLayout(contentHeight: number, viewportHeight: number, requestRender: () => void): void {
		this.contentHeight = contentHeight;
		this.viewportHeight = viewportHeight;
		this.requestRender = requestRender;
		if (this.isFollowingEnd) this.scrollTop = this.maxScroll();
		else this.scrollTop = Math.max(0, Math.min(this.scrollTop, this.maxScroll()));
	}

	scrollTo(top: number, options: { disableFollow?: boolean } = {}): void {
		this.scrollTop = Math.max(0, Math.min(top, this.maxScroll()));
		this.isFollowingEnd =
			!options.disableFollow && this.options.follow === "end" && this.scrollTop >= this.maxScroll();
		this.showScrollbar();
	}

	/** Scrolls by `delta` lines; returns the part that could not be used. */
	scrollBy(delta: number): number {
		const from = this.isFollowingEnd ? this.maxScroll() : this.scrollTop;
		const target = Math.max(0, Math.min(from + delta, this.maxScroll()));
		this.scrollTo(target);
		return delta - (target - from);
	}

	scrollToStart(): void {
		this.scrollTo(0);
	}

	scrollToEnd(): void {
		this.scrollTo(this.maxScroll());
		if (this.options.follow === "end") this.isFollowingEnd = true;
	}

	private showScrollbar(): void {
		if (this.options.scrollbar !== "auto") return;
		const delay = this.options.scrollbarHideDelayMs ?? 1000;
		this.scrollbarVisibleUntil = Date.now() + delay;
		if (this.hideTimer) clearTimeout(this.hideTimer);
		this.hideTimer = setTimeout(() => this.requestRender?.(), delay);
		this.hideTimer.unref?.();
	}

	/** Column reserved for the scrollbar when it is permanently shown. */
	contentWidth(width: number): number {
		return this.options.scrollbar === "always" ? Math.max(1, width - 1) : width;
	}

	/** Thumb position and size within the viewport, when a scrollbar is drawn. */
	scrollbarThumb(): { top: number; size: number } | undefined {
		if (!this.scrollbarShown()) return undefined;
		const height = this.viewportHeight;
		const size = Math.max(1, Math.round((height * height) / this.contentHeight));
		const top = Math.round((this.scrollTop / Math.max(1, this.maxScroll())) * (height - size));
		return { top, size };
	}

	/** Scrolls so the thumb's top sits at viewport row `thumbTop`. */
	scrollToThumb(thumbTop: number): void {
		const thumb = this.scrollbarThumb();
		const size = thumb?.size ?? 1;
		const range = Math.max(1, this.viewportHeight - size);
		this.scrollTo(Math.round((Math.max(0, Math.min(range, thumbTop)) / range) * this.maxScroll()));
	}

	private scrollbarShown(): boolean {
		if (this.contentHeight <= this.viewportHeight) return false;
		if (this.options.scrollbar === "always") return true;
		return this.options.scrollbar === "auto" && Date.now() < this.scrollbarVisibleUntil;
	}

	renderBox(width: number, height: number, _row: number, _col: number, ctx: LayoutFrameContext): string[] {
		const innerWidth = this.contentWidth(width);
		this.contentLines = ctx.renderComponent(this.child, innerWidth);
		this.updateLayout(this.contentLines.length, height, ctx.requestRender);
		const visible = fitBox(this.contentLines.slice(this.scrollTop, this.scrollTop + height), innerWidth, height);
		if (!this.scrollbarShown()) return innerWidth === width ? visible : visible.map((l) => `${l} `);
		const track = this.options.scrollbarTrackStyle ?? ((t: string) => `\x1b[90m${t}\x1b[39m`);
		const thumb = this.options.scrollbarThumbStyle ?? ((t: string) => `\x1b[37m${t}\x1b[39m`);
		const { top: thumbTop, size: thumbSize } = this.scrollbarThumb()!;
		const barWidth = innerWidth === width ? width - 1 : innerWidth;
		return visible.map((line, i) => {
			const base = innerWidth === width ? fitBox([line], barWidth, 1)[0]! : line;
			const onThumb = i >= thumbTop && i < thumbTop + thumbSize;
			return base + (onThumb ? thumb("┃") : track("│"));
		});
	}
}
