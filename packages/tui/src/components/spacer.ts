import type { Component } from "../tui/component.js";

/** Empty rows. */
export class Spacer implements Component {
	private lines: string[];

	constructor(count = 1) {
		this.lines = Array.from({ length: count }, () => "");
	}

	setLines(count: number): void {
		this.lines = Array.from({ length: count }, () => "");
	}

	invalidate(): void {}

	render(_width: number): readonly string[] {
		return this.lines;
	}
}
