import { applyBackgroundToLine, padToWidth, truncateToWidth } from "../text/truncate.js";
import { wrapTextWithAnsi } from "../text/wrap.js";
import type { Component } from "../tui/component.js";

/** Word-wrapped text with padding and an optional background. */
export class Text implements Component {
	private cache: { text: string; width: number; lines: string[] } | undefined;

	constructor(
		private text = "",
		private paddingX = 1,
		private paddingY = 1,
		private bgFn?: (text: string) => string,
	) {}

	setText(text: string): void {
		if (text === this.text) return;
		this.text = text;
		this.cache = undefined;
	}

	getText(): string {
		return this.text;
	}

	setCustomBgFn(bgFn: ((text: string) => string) | undefined): void {
		this.bgFn = bgFn;
		this.cache = undefined;
	}

	setPaddingX(paddingX: number): void {
		this.paddingX = paddingX;
		this.cache = undefined;
	}

	invalidate(): void {
		this.cache = undefined;
	}

	render(width: number): readonly string[] {
		if (this.cache && this.cache.text === this.text && this.cache.width === width) return this.cache.lines;
		const lines = this.layout(width);
		this.cache = { text: this.text, width, lines };
		return lines;
	}

	private layout(width: number): string[] {
		if (this.text.trim().length === 0) return [];
		const padX = Math.min(this.paddingX, Math.max(0, Math.floor((width - 1) / 2)));
		const contentWidth = Math.max(1, width - 2 * padX);
		const margin = " ".repeat(padX);
		// A double-width character cannot be split: at a tiny width it is cut instead of overflowing.
		const finish = (line: string) => {
			const fitted = truncateToWidth(line, width, "");
			return this.bgFn ? applyBackgroundToLine(fitted, width, this.bgFn) : padToWidth(fitted, width);
		};
		const lines = wrapTextWithAnsi(this.text.replaceAll("\t", "   "), contentWidth).map((l) => finish(margin + l));
		const blank = finish("");
		const vertical = Array.from({ length: this.paddingY }, () => blank);
		return [...vertical, ...lines, ...vertical];
	}
}
