import { EventEmitter } from "node:events";
import type { TerminalInput, TerminalOutput } from "@tau/tui";

/** A stdin stand-in that records raw-mode changes. */
export class FakeStdin extends EventEmitter implements TerminalInput {
	isTTY = true;
	isRaw = false;
	paused = true;
	rawModeCalls: boolean[] = [];
	setRawMode(mode: boolean): void {
		this.rawModeCalls.push(mode);
		this.isRaw = mode;
	}
	setEncoding(): void {}
	resume(): void {
		this.paused = false;
	}
	pause(): void {
		this.paused = true;
	}
	type(data: string): void {
		this.emit("data", data);
	}
}

/** A stdout stand-in collecting writes. */
export class FakeStdout extends EventEmitter implements TerminalOutput {
	output = "";
	columns = 80;
	rows = 24;
	constructor(public fd?: number) {
		super();
	}
	write(data: string): boolean {
		this.output += data;
		return true;
	}
}
