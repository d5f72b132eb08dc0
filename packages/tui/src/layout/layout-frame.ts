import { padToWidth, sliceByColumn } from "../text/truncate.js";
import { visibleWidth } from "../text/width.js";
import type { Component } from "../tui/component.js";

/** Where a component was drawn in the last layout frame (for mouse hit-testing). */
export interface LayoutRegion {
	component: Component;
	row: number;
	col: number;
	width: number;
	height: number;
}

/** Per-frame rendering context shared by layout components. */
export class LayoutFrameContext {
	readonly regions: LayoutRegion[] = [];
	/** Whether component output may be reused (scroll-only frames). */
	reuse = false;
	private readonly cache = new Map<Component, { width: number; lines: readonly string[] }>();

	constructor(readonly requestRender: () => void) {}

	/** Renders a component, or reuses its last output for the same width on scroll-only frames. */
	renderComponent(component: Component, width: number): readonly string[] {
		const cached = this.cache.get(component);
		if (this.reuse && cached && cached.width === width) return cached.lines;
		const lines = component.render(width);
		this.cache.set(component, { width, lines });
		return lines;
	}

	beginFrame(reuse: boolean): void {
		this.reuse = reuse;
		this.regions.length = 0;
	}
}

/** Components that lay themselves out into an exact box (stacks and scroll views). */
export interface BoxComponent extends Component {
	/** Natural size along an axis, for `basis: "auto"`. */
	intrinsicHeight(width: number, ctx: LayoutFrameContext): number;
	renderBox(width: number, height: number, row: number, col: number, ctx: LayoutFrameContext): string[];
}

export function isBoxComponent(c: Component): c is BoxComponent {
	return typeof (c as Partial<BoxComponent>).renderBox === "function";
}

/** Fits lines into a box: cut/padded to `height` rows, each exactly `width` columns. */
export function fitBox(lines: readonly string[], width: number, height: number): string[] {
	const out: string[] = [];
	for (let i = 0; i < height; i++) {
		const line = lines[i] ?? "";
		const w = visibleWidth(line);
		out.push(w > width ? sliceByColumn(line, 0, width, true) : padToWidth(line, width));
	}
	return out;
}

/** Renders any component into a box and records its region. */
export function renderIntoBox(
	component: Component,
	width: number,
	height: number,
	row: number,
	col: number,
	ctx: LayoutFrameContext,
): string[] {
	ctx.regions.push({ component, row, col, width, height });
	if (isBoxComponent(component)) return component.renderBox(width, height, row, col, ctx);
	return fitBox(ctx.renderComponent(component, width), width, height);
}

/** Renders the layout root into exactly `height` lines. */
export function renderLayoutFrame(root: Component, width: number, height: number, ctx: LayoutFrameContext): string[] {
	return renderIntoBox(root, width, height, 0, 0, ctx);
}
