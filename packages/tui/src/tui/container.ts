import type { Component, TuiMouseEvent, TuiMouseEventResult } from "./component.js";

/** The cached result of concatenating children's lines. */
export interface ChildLines {
	width: number;
	children: readonly Component[];
	parts: readonly (readonly string[])[];
	lines: readonly string[];
	/** Index of the first line that may differ from the previous result's lines. */
	changeStart: number;
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
	if (a === b) return true;
	if (a.length !== b.length) return false;
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
	return true;
}

/**
 * Renders every child and concatenates the lines; returns `previous` itself when nothing changed,
 * so unchanged subtrees of long transcripts allocate nothing.
 */
export function renderChildLines(
	children: readonly Component[],
	width: number,
	previous: ChildLines | undefined,
): ChildLines {
	const parts = children.map((c) => c.render(width));
	const comparable =
		previous !== undefined &&
		previous.width === width &&
		previous.children.length === children.length &&
		previous.children.every((c, i) => c === children[i]);
	// Index of the first part that differs; everything before it is reused from `previous`.
	let same = 0;
	if (comparable) while (same < parts.length && sameLines(previous.parts[same]!, parts[same]!)) same++;
	if (comparable && same === parts.length) return previous;
	let offset = 0;
	for (let i = 0; i < same; i++) offset += parts[i]!.length;
	const lines = comparable && same > 0 ? previous.lines.slice(0, offset) : [];
	let changeStart = comparable ? offset : 0;
	if (comparable) {
		// Within the first differing part, skip its unchanged leading lines too.
		const before = previous.parts[same]!;
		const after = parts[same]!;
		let k = 0;
		while (k < before.length && k < after.length && before[k] === after[k]) k++;
		changeStart += k;
	}
	for (let i = same; i < parts.length; i++) for (const line of parts[i]!) lines.push(line);
	return { width, children: [...children], parts, lines, changeStart };
}

/** A component made of other components stacked vertically. */
export class Container implements Component {
	children: Component[] = [];
	private layout: ChildLines | undefined;
	/** First line index of the last `render` that may differ from `changeBase` (the render before it). */
	protected changeStart = 0;
	protected changeBase: readonly string[] | undefined;

	addChild(component: Component): void {
		this.children.push(component);
	}

	removeChild(component: Component): void {
		const index = this.children.indexOf(component);
		if (index >= 0) this.children.splice(index, 1);
	}

	clear(): void {
		this.children = [];
	}

	invalidate(): void {
		for (const child of this.children) child.invalidate();
	}

	/** The children `render` draws: all of them here (see `LazyContainer`). */
	protected drawnChildren(_width: number): readonly Component[] {
		return this.children;
	}

	render(width: number): readonly string[] {
		const next = renderChildLines(this.drawnChildren(width), width, this.layout);
		this.changeBase = this.layout?.lines;
		this.changeStart = next === this.layout ? next.lines.length : next.changeStart;
		this.layout = next;
		return next.lines;
	}

	handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
		if (event.y < 0 || event.y >= event.height) return undefined;
		const layout =
			this.layout?.width === event.width
				? this.layout
				: renderChildLines(this.drawnChildren(event.width), event.width, undefined);
		let top = 0;
		for (let i = 0; i < layout.children.length; i++) {
			const child = layout.children[i]!;
			const height = layout.parts[i]!.length;
			if (event.y < top + height) {
				if (!child.handleMouse) return undefined;
				return child.handleMouse({ ...event, y: event.y - top, height });
			}
			top += height;
		}
		return undefined;
	}
}
