import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { visibleWidth } from "../text/width.js";
import { type CursorPosition, findCursor, isImageLine, prepareLine, resetLine } from "./frame.js";
import { KittyPlacements } from "./kitty-placements.js";
import { LineCache } from "./line-cache.js";
import { OutputWriter } from "./output-writer.js";
import { compositeOverlays } from "./overlay-layout.js";
import { RenderDebugLog } from "./render-debug.js";
import { TuiBase, type TuiMode } from "./tui-base.js";

const SYNC_START = "\x1b[?2026h";
const SYNC_END = "\x1b[?2026l";

/**
 * Differential renderer for the terminal's main screen: rows that scrolled into scrollback can no
 * longer be changed, so only the changed range of the visible area is rewritten.
 */
export class TuiMainScreen extends TuiBase {
	readonly mode: TuiMode = "regular";
	/** Line count of the last frame (its content lives in the reset cache). */
	private previousLength = 0;
	private previousWidth = 0;
	private previousHeight = 0;
	private previousViewportTop = 0;
	/** Frame row where the terminal cursor actually is. */
	private hardwareCursorRow = 0;
	private maxLinesRendered = 0;
	private lastCursor: { position: CursorPosition | null; shown: boolean } | undefined;
	/** Per-line post-processing, reused for lines that did not change since the last frame. */
	private readonly prepared = new LineCache();
	private preparedFor = false;
	private lastRaw: readonly string[] | undefined;
	private lastOverlaid = false;
	private readonly reset = new LineCache();
	private readonly debug = new RenderDebugLog(this.logDirectory);
	private readonly images = new KittyPlacements();

	protected resetRenderState(): void {
		this.prepared.clear();
		this.reset.clear();
		this.lastRaw = undefined;
		this.previousLength = 0;
		this.previousWidth = -1;
		this.previousHeight = -1;
		this.previousViewportTop = 0;
		this.hardwareCursorRow = 0;
		this.maxLinesRendered = 0;
		this.lastCursor = undefined;
	}

	protected preStart(): void {}

	protected preStop(preserveScreen: boolean): void {
		if (preserveScreen || this.previousLength === 0) return;
		const out = moveRows(this.previousLength - 1 - this.hardwareCursorRow);
		this.terminal.write(`${out}\r\n`);
		this.hardwareCursorRow = this.previousLength;
	}

	protected postStop(): void {}

	protected exitRestoreSequences(): { before: string; after: string } {
		return { before: this.exitRestorePrefix(), after: "" };
	}

	protected doRender(): void {
		if (this.stopped) return;
		const width = this.terminal.columns;
		const height = this.terminal.rows;
		const widthChanged = this.previousWidth !== 0 && this.previousWidth !== width;
		const heightChanged = this.previousHeight !== 0 && this.previousHeight !== height;
		if (heightChanged && this.previousHeight > 0)
			this.previousViewportTop = Math.max(0, this.previousViewportTop + this.previousHeight - height);

		if (this.preparedFor !== this.showHardwareCursor) {
			this.prepared.clear();
			this.preparedFor = this.showHardwareCursor;
		}
		const showCursor = this.showHardwareCursor;
		const raw = this.render(width);
		// Lines before the container's change start are the same objects as in the last frame, as
		// long as no other render happened in between.
		const from = this.previousWidth === width && this.changeBase === this.lastRaw ? this.changeStart : 0;
		this.lastRaw = raw;
		const prepared = this.prepared.update(raw, (l) => prepareLine(l, showCursor), from);
		let frame: readonly string[] = this.prepared.outputs;
		// Composited rows change without the underlying lines changing: check every row then.
		const overlaid = this.overlays.length > 0 || this.lastOverlaid;
		this.lastOverlaid = this.overlays.length > 0;
		if (this.overlays.length > 0) frame = compositeOverlays(frame, this.placeOverlays(width, height), width, height);
		const cursor = findCursor(frame, height);
		const resetFrom = overlaid ? 0 : prepared.first >= 0 ? prepared.first : frame.length;
		const changed = this.reset.update(frame, resetLine, resetFrom);
		const lines = this.reset.outputs;
		if (changed.first >= 0) this.checkWidths(lines, changed.first, changed.last, width);
		this.images.update(lines, changed.first, changed.last, this.previousLength);

		this.debug.frame(
			{
				firstChanged: changed.first,
				viewportTop: this.previousViewportTop,
				hardwareCursorRow: this.hardwareCursorRow,
				lines: lines.length,
			},
			this.previousLength,
			lines,
		);
		const firstRender = this.previousLength === 0 && !widthChanged && !heightChanged;
		if (firstRender) {
			this.fullRender(lines, false, width, height, cursor, "first render");
			return;
		}
		if (widthChanged) {
			const reason = `terminal width changed (${this.previousWidth} -> ${width})`;
			this.fullRender(lines, true, width, height, cursor, reason);
			return;
		}
		if (heightChanged && !process.env.TERMUX_VERSION) {
			this.fullRender(lines, true, width, height, cursor, "terminal height changed");
			return;
		}
		if (this.clearOnShrink && lines.length < this.maxLinesRendered && this.overlays.length === 0) {
			this.fullRender(lines, true, width, height, cursor, "clearOnShrink");
			return;
		}
		this.differentialRender(lines, changed, width, height, cursor);
	}

	/** A line wider than the terminal would wrap and corrupt every following row: fail loudly. */
	private checkWidths(lines: readonly string[], first: number, last: number, width: number): void {
		for (let i = first; i <= last; i++) {
			const line = lines[i]!;
			if (isImageLine(line)) continue;
			const w = visibleWidth(line);
			if (w <= width) continue;
			const logPath = path.join(this.logDirectory ?? os.tmpdir(), "tau-tui-crash.log");
			try {
				const dump = lines.map((l, n) => `[${n}] (${visibleWidth(l)}) ${JSON.stringify(l)}`).join("\n");
				fs.writeFileSync(
					logPath,
					`${new Date().toISOString()}\nterminal width: ${width}\nline ${i} has width ${w}\n\n${dump}\n`,
				);
			} catch {
				// The error below still reports the problem.
			}
			this.stop();
			throw new Error(
				`Rendered line ${i} is ${w} columns wide but the terminal is ${width} columns; ` +
					`a component is not truncating its output to the render width. Details: ${logPath}`,
			);
		}
	}

	private fullRender(
		lines: readonly string[],
		clear: boolean,
		width: number,
		height: number,
		cursor: CursorPosition | null,
		reason: string,
	): void {
		this.debug.redraw(reason);
		const out = new OutputWriter((d) => this.terminal.write(d));
		out.append(SYNC_START);
		if (clear) out.append(`${this.images.deleteAll()}\x1b[2J\x1b[H\x1b[3J`);
		else out.append(this.images.takeDeletions());
		for (let i = 0; i < lines.length; i++) out.append(i === 0 ? lines[i]! : `\r\n${lines[i]}`);
		this.hardwareCursorRow = Math.max(0, lines.length - 1);
		this.maxLinesRendered = clear ? lines.length : Math.max(this.maxLinesRendered, lines.length);
		this.previousViewportTop = Math.max(0, Math.max(height, lines.length) - height);
		this.lastCursor = undefined;
		out.append(this.cursorSequence(cursor));
		out.append(SYNC_END);
		out.flush();
		this.previousLength = lines.length;
		this.previousWidth = width;
		this.previousHeight = height;
		this.redrawCount++;
	}

	private differentialRender(
		lines: readonly string[],
		changed: { first: number; last: number },
		width: number,
		height: number,
		cursor: CursorPosition | null,
	): void {
		const oldLength = this.previousLength;
		let firstChanged = changed.first;
		let lastChanged = changed.last;
		if (lines.length > oldLength) {
			if (firstChanged < 0) firstChanged = oldLength;
			lastChanged = lines.length - 1;
		}
		if (lines.length < oldLength) {
			// Missing lines count as "": the removed rows changed.
			firstChanged = firstChanged < 0 ? lines.length : Math.min(firstChanged, lines.length);
			lastChanged = oldLength - 1;
		}
		this.previousWidth = width;
		this.previousHeight = height;
		if (firstChanged < 0) {
			const seq = this.cursorSequence(cursor);
			if (seq) this.terminal.write(seq);
			return;
		}
		const viewportBottom = this.previousViewportTop + height - 1;
		if (firstChanged >= lines.length) {
			const newLast = lines.length - 1;
			if (newLast < this.previousViewportTop || oldLength - lines.length > height) {
				this.fullRender(lines, true, width, height, cursor, "content shrank above the viewport");
				return;
			}
		} else if (firstChanged < this.previousViewportTop) {
			this.fullRender(lines, true, width, height, cursor, "firstChanged < viewportTop");
			return;
		}

		const out = new OutputWriter((d) => this.terminal.write(d));
		out.append(SYNC_START);
		out.append(this.images.takeDeletions());
		let row = this.hardwareCursorRow;
		let lowest = row;
		if (firstChanged < lines.length) {
			if (firstChanged > viewportBottom) {
				out.append(this.moveTo(row, viewportBottom));
				out.append("\r\n".repeat(firstChanged - viewportBottom));
			} else {
				out.append(this.moveTo(row, firstChanged));
				out.append("\r");
			}
			row = firstChanged;
			const end = Math.min(lastChanged, lines.length - 1);
			for (let i = firstChanged; i <= end; i++) {
				if (i > firstChanged) out.append("\r\n");
				out.append(`\x1b[2K${lines[i]}`);
			}
			row = end;
			lowest = Math.max(lowest, row);
			this.maxLinesRendered = Math.max(this.maxLinesRendered, end + 1);
		}
		if (oldLength > lines.length) {
			// Content shrank: blank the rows that held the removed lines, then come back.
			const newLast = lines.length - 1;
			if (newLast >= 0) {
				out.append(this.moveTo(row, newLast));
				row = newLast;
				for (let i = lines.length; i < oldLength; i++) out.append("\r\n\x1b[2K");
			} else {
				out.append(`${this.moveTo(row, 0)}\r\x1b[2K`);
				row = 0;
				for (let i = 1; i < oldLength; i++) out.append("\r\n\x1b[2K");
			}
			const cleared = newLast >= 0 ? oldLength - lines.length : oldLength - 1;
			lowest = Math.max(lowest, row + cleared);
			out.append(moveRows(-cleared));
			row = Math.max(0, newLast);
		}
		this.hardwareCursorRow = row;
		this.previousViewportTop = Math.max(this.previousViewportTop, lowest - height + 1);
		out.append(this.cursorSequence(cursor));
		out.append(SYNC_END);
		out.flush();
		this.previousLength = lines.length;
	}

	/**
	 * Moves between frame rows. Downward moves past the last row ever written use CRLF, which scrolls
	 * at the screen bottom where CSI B would stop.
	 */
	private moveTo(from: number, to: number): string {
		if (to <= from) return moveRows(to - from);
		const lastWritten = Math.max(from, this.maxLinesRendered - 1);
		const within = Math.min(to, lastWritten) - from;
		return moveRows(within) + "\r\n".repeat(to - from - within);
	}

	/** Positions the hardware cursor at the marker (shown only if enabled), or hides it. */
	private cursorSequence(cursor: CursorPosition | null): string {
		const shown = cursor !== null && this.showHardwareCursor;
		const last = this.lastCursor;
		if (
			last &&
			last.shown === shown &&
			last.position?.row === cursor?.row &&
			last.position?.col === cursor?.col &&
			(cursor === null || this.hardwareCursorRow === cursor.row)
		)
			return "";
		this.lastCursor = { position: cursor, shown };
		if (!cursor) return "\x1b[?25l";
		const seq = `${this.moveTo(this.hardwareCursorRow, cursor.row)}\x1b[${cursor.col + 1}G${shown ? "\x1b[?25h" : "\x1b[?25l"}`;
		this.hardwareCursorRow = cursor.row;
		return seq;
	}
}

function moveRows(n: number): string {
	if (n > 0) return `\x1b[${n}B`;
	if (n < 0) return `\x1b[${-n}A`;
	return "";
}
