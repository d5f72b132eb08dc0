import type { Component, TuiMouseEvent, TuiMouseEventResult } from "../tui/component.js";

/** Renders `child` unchanged and handles mouse events over it. */
export class MouseRegion implements Component {
	constructor(
		readonly child: Component,
		private readonly handler: (event: TuiMouseEvent) => TuiMouseEventResult | undefined,
	) {}

	render(width: number): readonly string[] {
		return this.child.render(width);
	}

	handleInput(data: string): void {
		this.child.handleInput?.(data);
	}

	handleMouse(event: TuiMouseEvent): TuiMouseEventResult | undefined {
		return this.handler(event);
	}

	invalidate(): void {
		this.child.invalidate();
	}
}
