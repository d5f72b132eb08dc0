import { applyBackgroundToLine, padToWidth } from "../text/truncate.js";
import type { Component } from "../tui/component.js";
import { Container } from "../tui/container.js";

/** A container that pads its children and paints a background behind them. */
export class Box extends Container {
	private cache:
		| { childLines: readonly string[]; width: number; bgSample: string | undefined; lines: string[] }
		| undefined;

	constructor(
		private paddingX = 1,
		private paddingY = 1,
		private bgFn?: (text: string) => string,
	) {
		super();
	}

	setBgFn(bgFn: ((text: string) => string) | undefined): void {
		this.bgFn = bgFn;
	}

	setPaddingX(paddingX: number): void {
		this.setPadding(paddingX, this.paddingY);
	}

	setPadding(paddingX: number, paddingY: number): void {
		this.paddingX = paddingX;
		this.paddingY = paddingY;
		this.cache = undefined;
	}

	override addChild(component: Component): void {
		super.addChild(component);
		this.cache = undefined;
	}

	override invalidate(): void {
		this.cache = undefined;
		super.invalidate();
	}

	override render(width: number): readonly string[] {
		if (this.children.length === 0) return [];
		const inner = Math.max(1, width - 2 * this.paddingX);
		const childLines = super.render(inner);
		if (childLines.length === 0) return [];
		// The sample detects a changed background function without an explicit invalidate().
		const bgSample = this.bgFn?.("test");
		const c = this.cache;
		if (c && c.childLines === childLines && c.width === width && c.bgSample === bgSample) return c.lines;
		const paint = (line: string) =>
			this.bgFn ? applyBackgroundToLine(line, width, this.bgFn) : padToWidth(line, width);
		const margin = " ".repeat(this.paddingX);
		const blank = paint("");
		const vertical = Array.from({ length: this.paddingY }, () => blank);
		const lines = [...vertical, ...childLines.map((l) => paint(margin + l)), ...vertical];
		this.cache = { childLines, width, bgSample, lines };
		return lines;
	}
}
