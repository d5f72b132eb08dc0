import { type ProgramStatus, StdinBuffer, type Terminal, TerminalSequences } from "@tau/tui";
import xterm from "@xterm/headless";

const { Terminal: XTerm } = xterm;

export interface CellStyle {
	bold: boolean;
	inverse: boolean;
	underline: boolean;
	fg: number;
	bg: number;
}

/** A `Terminal` backed by @xterm/headless, so tests assert on what a real terminal would show. */
export class VirtualTerminal implements Terminal {
	private readonly xterm: InstanceType<typeof XTerm>;
	private cols: number;
	private lines: number;
	private raw = "";
	private pending: Promise<void> = Promise.resolve();
	private onInput: ((data: string) => void) | undefined;
	private onResize: (() => void) | undefined;
	private buffer: StdinBuffer | undefined;
	private readonly modes = new Set<number>();
	readonly kittyProtocolActive: boolean;
	started = false;
	/** Sequences passed to `restoreOnExit`, in order. */
	readonly exitRestores: { before: string; after: string }[] = [];
	/** Malformed output: xterm parser complaints and tau's private APC markers (which must never reach a terminal). */
	readonly outputErrors: string[] = [];
	/** Every window title the output set (OSC 0/1/2), in order. */
	readonly titles: string[] = [];
	/** Every clipboard write the output asked for (OSC 52 payloads), in order. */
	readonly clipboardWrites: string[] = [];

	constructor(columns = 80, rows = 24, options: { scrollback?: number; kittyProtocol?: boolean } = {}) {
		this.cols = columns;
		this.lines = rows;
		this.kittyProtocolActive = options.kittyProtocol ?? false;
		const report = (message: unknown, state?: { position?: number; code?: number }) =>
			this.outputErrors.push(`xterm: ${String(message)} at ${state?.position} (code ${state?.code})`);
		const ignore = () => {};
		this.xterm = new XTerm({
			cols: columns,
			rows,
			scrollback: options.scrollback ?? 1000,
			allowProposedApi: true,
			logger: { trace: ignore, debug: ignore, info: ignore, warn: report, error: report },
		});
		this.modes.add(25);
		// Track DEC private modes ourselves: xterm does not expose all of them (e.g. 2026, 1006).
		const track = (set: boolean) => (params: (number | number[])[]) => {
			for (const p of params) {
				const mode = Array.isArray(p) ? p[0]! : p;
				if (set) this.modes.add(mode);
				else this.modes.delete(mode);
			}
			return false;
		};
		this.xterm.parser.registerCsiHandler({ prefix: "?", final: "h" }, track(true));
		this.xterm.parser.registerCsiHandler({ prefix: "?", final: "l" }, track(false));
		this.xterm.onTitleChange((title) => this.titles.push(title));
		this.xterm.parser.registerOscHandler(52, (data) => {
			this.clipboardWrites.push(data);
			return true;
		});
	}

	start(onInput: (data: string) => void, onResize: () => void): void {
		this.started = true;
		this.onInput = onInput;
		this.onResize = onResize;
		this.buffer = new StdinBuffer({ escapeTimeout: 10 });
		this.buffer.on("data", (d) => this.onInput?.(d));
		this.buffer.on("paste", (p) => this.onInput?.(`\x1b[200~${p}\x1b[201~`));
		this.write("\x1b[?2004h");
	}

	stop(): void {
		this.write("\x1b[?2004l");
		this.buffer?.destroy();
		this.buffer = undefined;
		this.onInput = undefined;
		this.onResize = undefined;
		this.started = false;
	}

	restoreOnExit(before: string, after: string): void {
		this.exitRestores.push({ before, after });
		this.write(`${before}\x1b[?2004l${after}`);
	}

	async drainInput(): Promise<void> {}

	write(data: string): void {
		this.raw += data;
		const marker = data.indexOf("\x1b_pi:");
		if (marker >= 0)
			this.outputErrors.push(`private APC marker written: ${JSON.stringify(data.slice(marker, marker + 24))}`);
		// xterm applies writes in order, so the last write's callback means everything is processed.
		this.pending = new Promise<void>((resolve) => this.xterm.write(data, resolve));
	}

	get columns(): number {
		return this.cols;
	}

	get rows(): number {
		return this.lines;
	}

	moveBy(lines: number): void {
		this.write(TerminalSequences.moveBy(lines));
	}
	hideCursor(): void {
		this.write(TerminalSequences.hideCursor);
	}
	showCursor(): void {
		this.write(TerminalSequences.showCursor);
	}
	clearLine(): void {
		this.write(TerminalSequences.clearLine);
	}
	clearFromCursor(): void {
		this.write(TerminalSequences.clearFromCursor);
	}
	clearScreen(): void {
		this.write(TerminalSequences.clearScreen);
	}
	setTitle(title: string): void {
		this.write(TerminalSequences.title(title));
	}
	setProgress(active: boolean): void {
		this.write(TerminalSequences.progress(active));
	}
	setProgramStatus(_status: ProgramStatus): void {}

	/** Delivers input as if typed (through a StdinBuffer, like the real terminal). */
	sendInput(data: string): void {
		if (!this.buffer) throw new Error("terminal not started");
		this.buffer.process(data);
	}

	sendPaste(text: string): void {
		this.sendInput(`\x1b[200~${text}\x1b[201~`);
	}

	resize(columns: number, rows: number): void {
		this.cols = columns;
		this.lines = rows;
		this.xterm.resize(columns, rows);
		this.onResize?.();
	}

	/** Resolves after xterm processed every write so far; rejects when anything written so far was malformed. */
	async flush(): Promise<void> {
		await this.pending;
		if (this.outputErrors.length > 0) throw new Error(`malformed terminal output:\n${this.outputErrors.join("\n")}`);
	}

	private rowText(index: number): string {
		return (this.xterm.buffer.active.getLine(index)?.translateToString(true) ?? "").replace(/\s+$/, "");
	}

	getViewport(): string[] {
		const buf = this.xterm.buffer.active;
		const out: string[] = [];
		for (let i = 0; i < this.lines; i++) out.push(this.rowText(buf.viewportY + i));
		return out;
	}

	getScrollback(): string[] {
		const buf = this.xterm.buffer.active;
		const out: string[] = [];
		for (let i = 0; i < buf.viewportY; i++) out.push(this.rowText(i));
		return out;
	}

	getCursor(): { row: number; col: number; visible: boolean } {
		const buf = this.xterm.buffer.active;
		return { row: buf.cursorY, col: buf.cursorX, visible: this.modes.has(25) };
	}

	getCellStyle(row: number, col: number): CellStyle {
		const buf = this.xterm.buffer.active;
		const cell = buf.getLine(buf.viewportY + row)?.getCell(col);
		if (!cell) return { bold: false, inverse: false, underline: false, fg: -1, bg: -1 };
		return {
			bold: cell.isBold() !== 0,
			inverse: cell.isInverse() !== 0,
			underline: cell.isUnderline() !== 0,
			fg: cell.isFgDefault() ? -1 : cell.getFgColor(),
			bg: cell.isBgDefault() ? -1 : cell.getBgColor(),
		};
	}

	getRawOutput(): string {
		return this.raw;
	}

	clearRawOutput(): void {
		this.raw = "";
	}

	isAltScreenActive(): boolean {
		return this.xterm.buffer.active.type === "alternate";
	}

	isModeSet(mode: number): boolean {
		return this.modes.has(mode);
	}
}
