import type { ProgramStatus } from "./program-status.js";

/** What the TUI needs from a terminal; `ProcessTerminal` is the real one, tests use a virtual one. */
export interface Terminal {
	start(onInput: (data: string) => void, onResize: () => void): void;
	stop(): void;
	/** Synchronous last-resort restore for exit paths that skip `stop()`. */
	restoreOnExit?(before: string, after: string): void;
	drainInput(maxMs?: number, idleMs?: number): Promise<void>;
	write(data: string): void;
	readonly columns: number;
	readonly rows: number;
	readonly kittyProtocolActive: boolean;
	moveBy(lines: number): void;
	hideCursor(): void;
	showCursor(): void;
	clearLine(): void;
	clearFromCursor(): void;
	clearScreen(): void;
	setTitle(title: string): void;
	setProgress(active: boolean): void;
	setProgramStatus(status: ProgramStatus): void;
}

/** Escape sequences shared by every `Terminal` implementation. */
export const TerminalSequences = {
	moveBy(lines: number): string {
		if (lines > 0) return `\x1b[${lines}B`;
		if (lines < 0) return `\x1b[${-lines}A`;
		return "";
	},
	hideCursor: "\x1b[?25l",
	showCursor: "\x1b[?25h",
	clearLine: "\x1b[K",
	clearFromCursor: "\x1b[J",
	clearScreen: "\x1b[2J\x1b[H",
	title(title: string): string {
		return `\x1b]0;${title.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ")}\x07`;
	},
	progress(active: boolean): string {
		return active ? "\x1b]9;4;3\x07" : "\x1b]9;4;0\x07";
	},
	bracketedPasteOn: "\x1b[?2004h",
	bracketedPasteOff: "\x1b[?2004l",
	kittyPush: "\x1b[>7u",
	kittyQuery: "\x1b[?u",
	kittyPop: "\x1b[<u",
	modifyOtherKeysOn: "\x1b[>4;2m",
	modifyOtherKeysOff: "\x1b[>4;0m",
	primaryDeviceAttributes: "\x1b[c",
} as const;
