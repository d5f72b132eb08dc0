import { sanitizeTerminalText, wrapTextWithAnsi } from "@tau/tui";
import type { UiTheme } from "../theme/ui-theme.js";

/**
 * A dialog's title, wrapped to the width rather than cut: a permission question must show all of
 * the command it asks about. `seconds` is a running countdown, shown after the title.
 */
export function dialogTitleLines(theme: UiTheme, title: string, width: number, seconds?: number): string[] {
	// Titles quote commands, names and extension strings: shown sanitised (docs/security.md).
	const shown = sanitizeTerminalText(title);
	const text = seconds === undefined ? shown : `${shown} (${seconds}s)`;
	return text.split("\n").flatMap((line) => wrapTextWithAnsi(theme.bold(line), width));
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
