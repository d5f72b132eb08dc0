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
 * With `deferEarlier` the earlier children are not even built until a render or a slice reaches them.
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
	/** Builds the next batch of children before the first one (latest first); undefined once exhausted. */
	private earlier: (() => readonly Component[]) | undefined;

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

	/**
	 * Like `deferHead`, for children that are not built yet: `batch` returns the children that come
	 * just before the current first child, a later part of the history first, and an empty list when
	 * there are no more. Without options every batch is built at once.
	 */
	deferEarlier(batch: () => readonly Component[]): void {
		this.earlier = batch;
		if (!this.lazy) this.buildAllEarlier();
		else this.deferHead();
	}

	/** Whether children are still held back (or not built yet). */
	get headPending(): boolean {
		return this.headDeferred || this.frontier !== undefined || this.earlier !== undefined;
	}

	/** Shows every child from now on (for output that must be complete, such as an exit dump). */
	revealAll(): void {
		this.stopDrawing();
		this.buildAllEarlier();
		this.headDeferred = false;
		this.frontier = undefined;
	}

	override clear(): void {
		this.earlier = undefined;
		this.revealAll();
		super.clear();
	}

	/** Puts the next batch of earlier children first; how many it added (0: none are left). */
	private buildEarlier(): number {
		const batch = this.earlier?.() ?? [];
		if (batch.length === 0) this.earlier = undefined;
		else this.children.unshift(...batch);
		return batch.length;
	}

	private buildAllEarlier(): void {
		while (this.buildEarlier() > 0);
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
		while (lines < wanted) {
			if (index === 0) {
				// A batch built before the first child moves the drawn ones along.
				const added = this.buildEarlier();
				if (added === 0) break;
				index += added;
			}
			index--;
			lines += this.children[index]!.render(width).length;
		}
		if (index === 0 && !this.earlier) return;
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
		if (!this.frontier || index < 0 || (index === 0 && !this.earlier)) {
			this.revealAll();
			lazy.requestRender();
			return;
		}
		const deadline = performance.now() + SLICE_MS;
		do {
			if (index === 0) {
				const added = this.buildEarlier();
				if (added === 0) break;
				index += added;
			}
			index--;
			this.children[index]!.render(this.lastWidth);
		} while (performance.now() < deadline);
		this.warmed = this.children[index];
		if (index === 0 && !this.earlier) this.frontier = undefined;
		else if (lazy.reveal() === "progressive") this.frontier = this.warmed;
		else {
			this.scheduleSlice();
			return;
		}
		lazy.requestRender();
		if (this.frontier) this.scheduleSlice();
	}
}
