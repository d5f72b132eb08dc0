import type { Component, TuiMouseEvent, TuiMouseEventResult } from "./component.js";

/** The cached result of concatenating children's lines. */
export interface ChildLines {
	width: number;
	children: readonly Component[];
	parts: readonly (readonly string[])[];
	lines: readonly string[];
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
	if (
		previous &&
		previous.width === width &&
		previous.children.length === children.length &&
		previous.children.every((c, i) => c === children[i]) &&
		previous.parts.every((p, i) => sameLines(p, parts[i]!))
	) {
		return previous;
	}
	const lines: string[] = [];
	for (const part of parts) for (const line of part) lines.push(line);
	return { width, children: [...children], parts, lines };
}

/** A component made of other components stacked vertically. */
export class Container implements Component {
	children: Component[] = [];
	private layout: ChildLines | undefined;

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

	render(width: number): readonly string[] {
		this.layout = renderChildLines(this.children, width, this.layout);
		return this.layout.lines;
	}

	handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
		if (event.y < 0 || event.y >= event.height) return undefined;
		const layout =
			this.layout?.width === event.width ? this.layout : renderChildLines(this.children, event.width, undefined);
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
