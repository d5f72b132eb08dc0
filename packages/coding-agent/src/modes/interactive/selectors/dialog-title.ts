import { matchesKey, sanitizeTerminalText, type TuiMouseEvent, wrapTextWithAnsi } from "@tau/tui";
import type { Theme } from "../../../core/resources/index.js";

/**
 * A dialog's title, wrapped to the width rather than cut: a permission question must show all of
 * the command it asks about. `seconds` is a running countdown, shown after the title.
 */
function dialogTitleLines(theme: Theme, title: string, width: number, seconds?: number): string[] {
	// Titles quote commands, names and extension strings: shown sanitised (docs/security.md).
	const shown = sanitizeTerminalText(title);
	const text = seconds === undefined ? shown : `${shown} (${seconds}s)`;
	return text.split("\n").flatMap((line) => wrapTextWithAnsi(theme.bold(line), width));
}

/**
 * A dialog title that may be taller than the room the screen leaves it (a long command in a small
 * terminal): it is shown in a window between two marker rows, and Shift+Up/Down or the mouse wheel
 * scroll it, so every line stays reachable while the dialog's choices stay on screen.
 */
export class DialogTitleWindow {
	private top = 0;
	private scrollable = false;

	/**
	 * @param maxRows the rows the whole dialog may take; undefined: no limit.
	 */
	constructor(
		private readonly theme: Theme,
		private readonly maxRows: (() => number) | undefined,
	) {}

	/** The title's rows for a dialog whose other parts take `bodyRows` rows. */
	render(title: string, width: number, bodyRows: number, seconds?: number): string[] {
		const lines = dialogTitleLines(this.theme, title, width, seconds);
		const room = this.maxRows ? Math.max(3, this.maxRows() - bodyRows) : Number.POSITIVE_INFINITY;
		this.scrollable = lines.length > room;
		if (!this.scrollable) {
			this.top = 0;
			return lines;
		}
		const rows = room - 2;
		this.top = Math.max(0, Math.min(this.top, lines.length - rows));
		const below = lines.length - this.top - rows;
		return [
			this.marker(this.top, "↑", width),
			...lines.slice(this.top, this.top + rows),
			this.marker(below, "↓", width),
		];
	}

	private marker(hidden: number, arrow: string, width: number): string {
		if (hidden === 0) return "";
		const text = `${arrow} ${hidden} more line${hidden === 1 ? "" : "s"} · Shift+${arrow}`;
		return this.theme.fg("dim", wrapTextWithAnsi(text, width)[0] ?? "");
	}

	/** Shift+Up/Down scroll the title while it does not fit; other keys are the dialog's. */
	handleInput(data: string): boolean {
		if (!this.scrollable) return false;
		if (matchesKey(data, "shift+up")) this.top = Math.max(0, this.top - 1);
		else if (matchesKey(data, "shift+down")) this.top++;
		else return false;
		return true;
	}

	/** The wheel over the dialog scrolls the title while it does not fit. */
	handleMouse(event: TuiMouseEvent): { handled: true } | undefined {
		if (!this.scrollable || event.type !== "wheel" || !event.wheelDelta) return undefined;
		this.top = Math.max(0, this.top + event.wheelDelta);
		return { handled: true };
	}
}

/** Seconds left of a dialog timeout, counted down once a second while the dialog is shown. */
export class DialogCountdown {
	private readonly deadline: number;
	private timer: ReturnType<typeof setInterval> | undefined;

	constructor(timeoutMs: number, onTick: () => void) {
		this.deadline = Date.now() + timeoutMs;
		this.timer = setInterval(onTick, 1000);
		this.timer.unref?.();
	}

	get seconds(): number {
		return Math.max(0, Math.ceil((this.deadline - Date.now()) / 1000));
	}

	stop(): void {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
	}
}
