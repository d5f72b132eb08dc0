import { padToWidth, truncateToWidth } from "../text/truncate.js";
import type { Component } from "../tui/component.js";

/** The first line of a text, truncated to fit. */
export class TruncatedText implements Component {
	constructor(
		private text: string,
		private paddingX = 0,
		private paddingY = 0,
	) {}

	setText(text: string): void {
		this.text = text;
	}

	invalidate(): void {}

	render(width: number): readonly string[] {
		const firstLine = this.text.split("\n")[0] ?? "";
		const margin = " ".repeat(Math.max(0, Math.min(this.paddingX, Math.floor(width / 2))));
		const inner = truncateToWidth(firstLine, Math.max(0, width - 2 * margin.length));
		const line = padToWidth(margin + inner, width);
		const blank = " ".repeat(width);
		const vertical = Array.from({ length: this.paddingY }, () => blank);
		return [...vertical, line, ...vertical];
	}
}
