import { visibleWidth } from "../text/width.js";
import type { Component } from "../tui/component.js";
import { type BoxComponent, isBoxComponent, type LayoutFrameContext, renderIntoBox } from "./layout-frame.js";

/** One child of a `Stack` with its flex sizing: basis, grow and shrink. */
export interface StackEntry {
	component: Component;
	basis?: number | "auto";
	grow?: number;
	shrink?: number;
	minSize?: number;
	maxSize?: number;
	visible?: (viewport: { width: number; height: number }) => boolean;
}

/** Options of `Stack`: the gap between children and their cross-axis alignment. */
export interface StackOptions {
	gap?: number;
	align?: "start" | "center" | "end";
}

function entryOf(e: Component | StackEntry): StackEntry {
	return "component" in e && typeof (e as StackEntry).component?.render === "function"
		? (e as StackEntry)
		: { component: e as Component };
}

/** Distributes `total` along the main axis: basis, then grow or shrink rounds, within min/max. */
export function allocateSizes(entries: readonly StackEntry[], intrinsic: readonly number[], total: number): number[] {
	const clamp = (e: StackEntry, n: number) =>
		Math.max(e.minSize ?? 0, Math.min(e.maxSize ?? Number.POSITIVE_INFINITY, n));
	const sizes = entries.map((e, i) => clamp(e, typeof e.basis === "number" ? e.basis : intrinsic[i]!));
	for (let round = 0; round < 100; round++) {
		const sum = sizes.reduce((a, b) => a + b, 0);
		if (sum === total) break;
		let moved = 0;
		if (sum < total) {
			const candidates = entries
				.map((_, i) => i)
				.filter(
					(i) => (entries[i]!.grow ?? 0) > 0 && sizes[i]! < (entries[i]!.maxSize ?? Number.POSITIVE_INFINITY),
				);
			const weight = candidates.reduce((a, i) => a + entries[i]!.grow!, 0);
			let surplus = total - sum;
			for (const i of candidates) {
				if (surplus <= 0) break;
				const share = Math.max(1, Math.floor(((total - sum) * entries[i]!.grow!) / weight));
				const next = clamp(entries[i]!, sizes[i]! + Math.min(share, surplus));
				moved += next - sizes[i]!;
				surplus -= next - sizes[i]!;
				sizes[i] = next;
			}
		} else {
			const candidates = entries
				.map((_, i) => i)
				.filter((i) => (entries[i]!.shrink ?? 1) > 0 && sizes[i]! > (entries[i]!.minSize ?? 0));
			const weight = candidates.reduce((a, i) => a + (entries[i]!.shrink ?? 1) * Math.max(1, sizes[i]!), 0);
			let deficit = sum - total;
			for (const i of candidates) {
				if (deficit <= 0) break;
				const share = Math.max(
					1,
					Math.floor(((sum - total) * (entries[i]!.shrink ?? 1) * Math.max(1, sizes[i]!)) / weight),
				);
				const next = clamp(entries[i]!, sizes[i]! - Math.min(share, deficit));
				moved += sizes[i]! - next;
				deficit -= sizes[i]! - next;
				sizes[i] = next;
			}
		}
		if (moved === 0) break;
	}
	return sizes;
}

abstract class Stack implements BoxComponent {
	protected entries: StackEntry[];
	protected readonly gap: number;

	constructor(children: (Component | StackEntry)[], options: StackOptions = {}) {
		this.entries = children.map(entryOf);
		this.gap = options.gap ?? 0;
	}

	addChild(child: Component | StackEntry): void {
		this.entries.push(entryOf(child));
	}

	removeChild(component: Component): void {
		this.entries = this.entries.filter((e) => e.component !== component);
	}

	invalidate(): void {
		for (const e of this.entries) e.component.invalidate();
	}

	protected visibleEntries(width: number, height: number): StackEntry[] {
		return this.entries.filter((e) => !e.visible || e.visible({ width, height }));
	}

	abstract render(width: number): readonly string[];
	abstract intrinsicHeight(width: number, ctx: LayoutFrameContext): number;
	abstract renderBox(width: number, height: number, row: number, col: number, ctx: LayoutFrameContext): string[];
}

function naturalHeight(c: Component, width: number, ctx: LayoutFrameContext): number {
	return isBoxComponent(c) ? c.intrinsicHeight(width, ctx) : ctx.renderComponent(c, width).length;
}

/** Children stacked top to bottom in a fixed-height box. */
export class VStack extends Stack {
	render(width: number): readonly string[] {
		return this.entries.flatMap((e) => [...e.component.render(width)]);
	}

	intrinsicHeight(width: number, ctx: LayoutFrameContext): number {
		const visible = this.entries;
		return (
			visible.reduce((a, e) => a + naturalHeight(e.component, width, ctx), 0) +
			this.gap * Math.max(0, visible.length - 1)
		);
	}

	renderBox(width: number, height: number, row: number, col: number, ctx: LayoutFrameContext): string[] {
		const entries = this.visibleEntries(width, height);
		const gaps = this.gap * Math.max(0, entries.length - 1);
		const sizes = allocateSizes(
			entries,
			entries.map((e) => naturalHeight(e.component, width, ctx)),
			Math.max(0, height - gaps),
		);
		const out: string[] = [];
		entries.forEach((e, i) => {
			if (i > 0) for (let g = 0; g < this.gap; g++) out.push(" ".repeat(width));
			out.push(...renderIntoBox(e.component, width, sizes[i]!, row + out.length, col, ctx));
		});
		while (out.length < height) out.push(" ".repeat(width));
		return out.slice(0, height);
	}
}

/** Children side by side in a fixed-width box. */
export class HStack extends Stack {
	/** Unbounded document: the children one after another (side-by-side needs a box). */
	render(width: number): readonly string[] {
		return this.entries.flatMap((e) => [...e.component.render(width)]);
	}

	intrinsicHeight(width: number, ctx: LayoutFrameContext): number {
		return Math.max(0, ...this.entries.map((e) => naturalHeight(e.component, width, ctx)));
	}

	renderBox(width: number, height: number, row: number, col: number, ctx: LayoutFrameContext): string[] {
		const entries = this.visibleEntries(width, height);
		const gaps = this.gap * Math.max(0, entries.length - 1);
		const intrinsic = entries.map((e) =>
			isBoxComponent(e.component)
				? 0
				: Math.max(0, ...ctx.renderComponent(e.component, width).map((l) => visibleWidth(l))),
		);
		const sizes = allocateSizes(entries, intrinsic, Math.max(0, width - gaps));
		const columns: string[][] = [];
		let x = col;
		entries.forEach((e, i) => {
			columns.push(renderIntoBox(e.component, sizes[i]!, height, row, x, ctx));
			x += sizes[i]! + this.gap;
		});
		const spacer = " ".repeat(this.gap);
		const out: string[] = [];
		for (let r = 0; r < height; r++) {
			let line = columns.map((c) => c[r] ?? "").join(spacer);
			const w = visibleWidth(line);
			if (w < width) line += " ".repeat(width - w);
			out.push(line);
		}
		return out;
	}
}
