import fs from "node:fs";
import { setKittyProtocolActive } from "../keys/kitty-state.js";
import { formatProgramStatus, PROGRAM_STATUS_QUERY, type ProgramStatus } from "./program-status.js";
import { StdinBuffer } from "./stdin-buffer.js";
import { TerminalSequences as Seq, type Terminal } from "./terminal.js";
import { appendWriteLog, resolveWriteLogPath } from "./write-log.js";

/** The parts of `process.stdin` the terminal uses (injectable for tests). */
export interface TerminalInput extends NodeJS.EventEmitter {
	isTTY?: boolean;
	isRaw?: boolean;
	setRawMode?(mode: boolean): unknown;
	setEncoding(encoding: BufferEncoding): unknown;
	resume(): unknown;
	pause(): unknown;
}

/** The parts of `process.stdout` the terminal uses (injectable for tests). */
export interface TerminalOutput extends NodeJS.EventEmitter {
	fd?: number;
	columns?: number;
	rows?: number;
	write(data: string): boolean;
}

/** Streams a `ProcessTerminal` uses instead of `process.stdin` and `process.stdout`. */
export interface ProcessTerminalOptions {
	stdin?: TerminalInput;
	stdout?: TerminalOutput;
}

const KITTY_REPLY = /^\x1b\[\?(\d+)u$/;
const DA1_REPLY = /^\x1b\[\?[\d;]*c$/;
const PARTIAL_REPLY = /^\x1b\[\?[\d;]*$/;
const STATUS_REPLY = /^\x1b\]7501;\?[^\x07\x1b]*(?:\x07|\x1b\\)$/;
const SPLIT_REPLY_TIMEOUT_MS = 150;
const PROGRESS_KEEPALIVE_MS = 1000;

/**
 * Rewrites Enter to Shift+Enter on terminals that cannot report it, when the Shift key is known to
 * be down. tau has no native modifier-state helper, so callers pass `isShiftPressed = false`.
 */
export function normalizeNativeShiftEnterInput(data: string, shouldDetect: boolean, isShiftPressed: boolean): string {
	if (shouldDetect && isShiftPressed && (data === "\r" || data === "\x1b\r")) return "\x1b[13;2u";
	return data;
}

function escapeTimeoutFromEnv(env: NodeJS.ProcessEnv): number {
	const configured = Number(env.TAU_TUI_ESC_TIMEOUT);
	if (Number.isFinite(configured) && configured > 0) return configured;
	return env.SSH_CONNECTION || env.SSH_TTY ? 100 : 10;
}

/** The real terminal: raw stdin, stdout, keyboard-protocol negotiation and restore on stop. */
/** Apple's Terminal.app on macOS, which cannot report Shift+Enter by itself. */
export function isAppleTerminalSession(): boolean {
	return process.platform === "darwin" && process.env.TERM_PROGRAM === "Apple_Terminal";
}

/**
 * The `Terminal` of the current process: raw-mode stdin, stdout, resize events and the keyboard protocol negotiation.
 */
export class ProcessTerminal implements Terminal {
	private readonly stdin: TerminalInput;
	private readonly stdout: TerminalOutput;
	private readonly logFile: string | undefined;
	private readonly nativeShiftEnter: boolean;
	private wasRaw = false;
	private buffer: StdinBuffer | undefined;
	private onInput: ((data: string) => void) | undefined;
	private onResize: (() => void) | undefined;
	private readonly dataHandler = (chunk: string | Buffer) => this.buffer?.process(chunk);
	private kittyPushed = false;
	private kittyActive = false;
	private modifyOtherKeys = false;
	private owedDa1 = 0;
	private statusQueryPending = false;
	private statusSupported = false;
	private programStatus: ProgramStatus | undefined;
	private splitReply = "";
	private splitTimer: ReturnType<typeof setTimeout> | undefined;
	private progressTimer: ReturnType<typeof setInterval> | undefined;

	constructor(options: ProcessTerminalOptions = {}) {
		this.stdin = options.stdin ?? process.stdin;
		this.stdout = options.stdout ?? process.stdout;
		this.logFile = resolveWriteLogPath(process.env.TAU_TUI_WRITE_LOG);
		this.nativeShiftEnter = isAppleTerminalSession() || process.platform === "win32";
	}

	get kittyProtocolActive(): boolean {
		return this.kittyActive;
	}

	get columns(): number {
		return this.stdout.columns || Number(process.env.COLUMNS) || 80;
	}

	get rows(): number {
		return this.stdout.rows || Number(process.env.LINES) || 24;
	}

	start(onInput: (data: string) => void, onResize: () => void): void {
		this.onInput = onInput;
		this.onResize = onResize;
		this.wasRaw = this.stdin.isRaw ?? false;
		this.stdin.setRawMode?.(true);
		this.stdin.setEncoding("utf8");
		this.stdin.resume();
		this.write(Seq.bracketedPasteOn);
		this.stdout.on("resize", onResize);
		if (process.platform !== "win32") {
			try {
				// Dimensions may have changed while the process was suspended.
				process.kill(process.pid, "SIGWINCH");
			} catch {
				// Not permitted in some sandboxes; the next resize event corrects the size.
			}
		}
		this.buffer = new StdinBuffer({ escapeTimeout: escapeTimeoutFromEnv(process.env) });
		this.buffer.on("data", (seq) => this.handleSequence(seq));
		this.buffer.on("paste", (content) => this.onInput?.(`\x1b[200~${content}\x1b[201~`));
		this.stdin.on("data", this.dataHandler);

		const statusMode = process.env.TAU_PROGRAM_STATUS;
		const queryStatus = statusMode !== "1" && statusMode !== "0";
		this.statusSupported = statusMode === "1";
		this.statusQueryPending = queryStatus;
		this.write(
			Seq.kittyPush + Seq.kittyQuery + (queryStatus ? PROGRAM_STATUS_QUERY : "") + Seq.primaryDeviceAttributes,
		);
		this.kittyPushed = true;
		this.owedDa1++;
		if (this.statusSupported && this.programStatus) this.write(formatProgramStatus(this.programStatus));
	}

	/** Intercepts negotiation replies; everything else goes to the application. */
	private handleSequence(seq: string): void {
		if (this.splitReply) {
			const combined = this.splitReply + seq;
			if (PARTIAL_REPLY.test(combined)) {
				this.splitReply = combined;
				return;
			}
			this.clearSplit();
			if (KITTY_REPLY.test(combined) || DA1_REPLY.test(combined)) {
				this.handleSequence(combined);
				return;
			}
			this.deliver(combined.slice(0, combined.length - seq.length));
		}
		if (seq === "\x1b[" || PARTIAL_REPLY.test(seq)) {
			this.splitReply = seq;
			this.splitTimer = setTimeout(() => {
				const pending = this.splitReply;
				this.clearSplit();
				this.deliver(pending);
			}, SPLIT_REPLY_TIMEOUT_MS);
			return;
		}
		const kitty = KITTY_REPLY.exec(seq);
		if (kitty) {
			if (Number(kitty[1]) !== 0) {
				this.kittyActive = true;
				setKittyProtocolActive(true);
				if (this.modifyOtherKeys) {
					this.write(Seq.modifyOtherKeysOff);
					this.modifyOtherKeys = false;
				}
			} else this.enableModifyOtherKeys();
			return;
		}
		if (DA1_REPLY.test(seq) && this.owedDa1 > 0) {
			this.owedDa1--;
			if (this.owedDa1 === 0) {
				this.statusQueryPending = false;
				if (!this.kittyActive) this.enableModifyOtherKeys();
			}
			return;
		}
		if (STATUS_REPLY.test(seq) && this.statusQueryPending) {
			this.statusQueryPending = false;
			this.statusSupported = true;
			if (this.programStatus) this.write(formatProgramStatus(this.programStatus));
			return;
		}
		this.deliver(seq);
	}

	private deliver(seq: string): void {
		this.onInput?.(normalizeNativeShiftEnterInput(seq, this.nativeShiftEnter, false));
	}

	private clearSplit(): void {
		if (this.splitTimer) clearTimeout(this.splitTimer);
		this.splitTimer = undefined;
		this.splitReply = "";
	}

	private enableModifyOtherKeys(): void {
		if (this.modifyOtherKeys) return;
		this.modifyOtherKeys = true;
		this.write(Seq.modifyOtherKeysOn);
	}

	stop(): void {
		if (this.progressTimer) {
			clearInterval(this.progressTimer);
			this.progressTimer = undefined;
			this.write(Seq.progress(false));
		}
		if (this.statusSupported && this.programStatus) this.write(formatProgramStatus({ state: "clear" }));
		this.statusSupported = false;
		this.statusQueryPending = false;
		this.write(Seq.bracketedPasteOff);
		this.leaveKeyboardProtocols();
		this.owedDa1 = 0;
		this.clearSplit();
		this.buffer?.destroy();
		this.buffer = undefined;
		this.stdin.off("data", this.dataHandler);
		if (this.onResize) this.stdout.off("resize", this.onResize);
		this.onInput = undefined;
		this.onResize = undefined;
		// Paused stdin keeps buffered keys such as Ctrl+D from reaching the parent shell.
		this.stdin.pause();
		this.stdin.setRawMode?.(this.wasRaw);
	}

	/** Turns the Kitty keyboard protocol and modifyOtherKeys off again, if they were on. */
	private leaveKeyboardProtocols(): void {
		if (this.kittyPushed || this.kittyActive) this.write(Seq.kittyPop);
		this.kittyPushed = false;
		this.kittyActive = false;
		setKittyProtocolActive(false);
		if (this.modifyOtherKeys) this.write(Seq.modifyOtherKeysOff);
		this.modifyOtherKeys = false;
	}

	restoreOnExit(before: string, after: string): void {
		let data = before;
		if (this.progressTimer) data += Seq.progress(false);
		data += Seq.bracketedPasteOff;
		if (this.kittyPushed || this.kittyActive) data += Seq.kittyPop;
		if (this.modifyOtherKeys) data += Seq.modifyOtherKeysOff;
		data += after;
		try {
			// Asynchronous writes are not flushed during `exit`.
			fs.writeSync(this.stdout.fd ?? 1, data);
		} catch {
			// Nothing left to do while exiting.
		}
	}

	async drainInput(maxMs = 1000, idleMs = 50): Promise<void> {
		this.leaveKeyboardProtocols();
		this.stdin.off("data", this.dataHandler);
		let lastData = Date.now();
		const onData = () => {
			lastData = Date.now();
		};
		this.stdin.on("data", onData);
		const started = Date.now();
		await new Promise<void>((resolve) => {
			const check = () => {
				const now = Date.now();
				if (now - lastData >= idleMs || now - started >= maxMs) resolve();
				else setTimeout(check, Math.min(idleMs - (now - lastData), maxMs - (now - started)));
			};
			setTimeout(check, idleMs);
		});
		this.stdin.off("data", onData);
		if (this.buffer) this.stdin.on("data", this.dataHandler);
	}

	write(data: string): void {
		this.stdout.write(data);
		appendWriteLog(this.logFile, data);
	}

	moveBy(lines: number): void {
		const seq = Seq.moveBy(lines);
		if (seq) this.write(seq);
	}

	hideCursor(): void {
		this.write(Seq.hideCursor);
	}

	showCursor(): void {
		this.write(Seq.showCursor);
	}

	clearLine(): void {
		this.write(Seq.clearLine);
	}

	clearFromCursor(): void {
		this.write(Seq.clearFromCursor);
	}

	clearScreen(): void {
		this.write(Seq.clearScreen);
	}

	setTitle(title: string): void {
		this.write(Seq.title(title));
	}

	setProgress(active: boolean): void {
		if (this.progressTimer) clearInterval(this.progressTimer);
		this.progressTimer = undefined;
		if (active) {
			this.write(Seq.progress(true));
			this.progressTimer = setInterval(() => this.write(Seq.progress(true)), PROGRESS_KEEPALIVE_MS);
			this.progressTimer.unref?.();
		} else this.write(Seq.progress(false));
	}

	setProgramStatus(status: ProgramStatus): void {
		if (status.state !== "clear") this.programStatus = status;
		else this.programStatus = undefined;
		if (this.statusSupported) this.write(formatProgramStatus(status));
	}
}
