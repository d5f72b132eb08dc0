import type { ProgramStatus, Terminal } from "../src/index.js";

/** A terminal that only counts what is written (no emulator cost in the measurement). */
export class CountingTerminal implements Terminal {
	bytes = 0;
	private onInput: ((data: string) => void) | undefined;
	readonly kittyProtocolActive = false;

	constructor(
		readonly columns: number,
		readonly rows: number,
	) {}

	start(onInput: (data: string) => void): void {
		this.onInput = onInput;
	}
	stop(): void {
		this.onInput = undefined;
	}
	async drainInput(): Promise<void> {}
	write(data: string): void {
		this.bytes += Buffer.byteLength(data, "utf8");
	}
	type(data: string): void {
		this.onInput?.(data);
	}
	moveBy(): void {}
	hideCursor(): void {}
	showCursor(): void {}
	clearLine(): void {}
	clearFromCursor(): void {}
	clearScreen(): void {}
	setTitle(): void {}
	setProgress(): void {}
	setProgramStatus(_status: ProgramStatus): void {}
}
