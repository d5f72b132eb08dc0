import type { Component } from "./component.js";
import { Container } from "./container.js";

/** Options of `LazyContainer`: how many lines the first frame needs and how earlier children appear later. */
export interface LazyContainerOptions {
	/** Lines the first frame draws from the end: the screen plus the scroll-back it needs. */
	firstFrameLines(): number;
	/**
	 * How earlier children appear once drawn: one slice at a time ("progressive", for a scrolling
	 * view), or all together at the end ("whole": a main screen can only append below, so every
	 * reveal above the screen redraws it).
	 */
	reveal(): "progressive" | "whole";
	/** Asks for a frame after children were revealed. */
	requestRender(): void;
}

/** How long one background slice may draw children before yielding to input and I/O. */
const SLICE_MS = 8;

/**
 * A container for long histories. After `deferHead`, the next render draws only the last children
 * that fill `firstFrameLines()`; the earlier ones are drawn in short slices between events and
 * revealed afterwards, so the first frame costs what is on screen rather than the whole history.
 */
export class LazyContainer extends Container {
	/** Set by `deferHead` until the next render picks the first drawn child. */
	private headDeferred = false;
	/** The first child drawn; those before it are held back. */
	private frontier: Component | undefined;
	/** The earliest child already drawn in the background (at or before the frontier). */
	private warmed: Component | undefined;
	private slice: ReturnType<typeof setImmediate> | undefined;
	private lastWidth = 0;

	constructor(private readonly lazy?: LazyContainerOptions) {
		super();
	}

	/** Holds back the current children that the next frame does not need (see the class comment). */
	deferHead(): void {
		if (!this.lazy) return;
		this.stopDrawing();
		this.frontier = undefined;
		this.headDeferred = true;
	}

	/** Whether children are still held back. */
	get headPending(): boolean {
		return this.headDeferred || this.frontier !== undefined;
	}

	/** Shows every child from now on (for output that must be complete, such as an exit dump). */
	revealAll(): void {
		this.stopDrawing();
		this.headDeferred = false;
		this.frontier = undefined;
	}

	override clear(): void {
		this.revealAll();
		super.clear();
	}

	protected override drawnChildren(width: number): readonly Component[] {
		this.lastWidth = width;
		if (this.headDeferred) this.pickFrontier(width);
		if (!this.frontier) return this.children;
		const index = this.children.indexOf(this.frontier);
		if (index < 0) this.revealAll();
		return index > 0 ? this.children.slice(index) : this.children;
	}

	private pickFrontier(width: number): void {
		this.headDeferred = false;
		const wanted = this.lazy!.firstFrameLines();
		let lines = 0;
		let index = this.children.length;
		while (index > 0 && lines < wanted) {
			index--;
			lines += this.children[index]!.render(width).length;
		}
		if (index === 0) return;
		this.frontier = this.children[index];
		this.warmed = this.frontier;
		this.scheduleSlice();
	}

	private scheduleSlice(): void {
		this.slice = setImmediate(() => this.drawSlice());
		this.slice.unref?.();
	}

	private stopDrawing(): void {
		if (this.slice) clearImmediate(this.slice);
		this.slice = undefined;
	}

	/** Draws held-back children from the frontier backwards for one slice, then reveals them. */
	private drawSlice(): void {
		this.slice = undefined;
		const lazy = this.lazy!;
		let index = this.warmed ? this.children.indexOf(this.warmed) : -1;
		if (!this.frontier || index <= 0) {
			this.revealAll();
			lazy.requestRender();
			return;
		}
		const deadline = performance.now() + SLICE_MS;
		do {
			index--;
			this.children[index]!.render(this.lastWidth);
		} while (index > 0 && performance.now() < deadline);
		this.warmed = this.children[index];
		if (index === 0) this.frontier = undefined;
		else if (lazy.reveal() === "progressive") this.frontier = this.warmed;
		else {
			this.scheduleSlice();
			return;
		}
		lazy.requestRender();
		if (this.frontier) this.scheduleSlice();
	}
}
