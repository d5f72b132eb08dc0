import type { Component } from "@tau/tui";

/** A component showing a mutable list of lines; counts its renders. */
export class Lines implements Component {
	renders = 0;
	private cached: string[];
	constructor(lines: string[] = []) {
		this.cached = [...lines];
	}
	set(lines: string[]): void {
		this.cached = [...lines];
	}
	get lines(): readonly string[] {
		return this.cached;
	}
	render(): readonly string[] {
		this.renders++;
		return this.cached;
	}
	invalidate(): void {}
}

export function numbered(n: number, prefix = "line"): string[] {
	return Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);
}

/** Resolves after pending `process.nextTick` callbacks ran. */
export function nextTick(): Promise<void> {
	return new Promise((resolve) => process.nextTick(resolve));
}
