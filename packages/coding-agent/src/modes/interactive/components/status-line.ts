import { Container, Loader, type LoaderIndicator, sanitizeTerminalText, type TUI } from "@tau/tui";
import type { UiTheme } from "../theme/ui-theme.js";

/**
 * The indicator between the transcript and the editor: working spinner, retry countdown or
 * compaction progress. One at a time; the most recent wins.
 */
export class StatusLine extends Container {
	private loader: Loader | undefined;
	private countdown: ReturnType<typeof setInterval> | undefined;
	workingMessage: string | undefined;
	workingVisible = true;
	indicator: LoaderIndicator | undefined;

	constructor(
		private readonly tui: Pick<TUI, "requestRender">,
		private readonly theme: UiTheme,
	) {
		super();
	}

	/** The text currently shown (for tests and the debug log). */
	get text(): string | undefined {
		return this.loader?.getText();
	}

	show(message: string, indicator?: LoaderIndicator): void {
		this.clearIndicator();
		this.loader = new Loader(
			this.tui,
			(t) => this.theme.fg("accent", t),
			(t) => this.theme.fg("muted", t),
			// Extensions set working messages and indicator frames.
			sanitizeTerminalText(message).replace(/\n/g, " "),
			indicator && { ...indicator, frames: indicator.frames?.map((frame) => sanitizeTerminalText(frame)) },
		);
		this.addChild(this.loader);
		this.tui.requestRender();
	}

	showWorking(defaultMessage: string): void {
		if (!this.workingVisible) {
			this.clearIndicator();
			return;
		}
		this.show(this.workingMessage ?? defaultMessage, this.indicator);
	}

	/** `message(secondsLeft)` is re-rendered every second until cleared. */
	showCountdown(delayMs: number, message: (seconds: number) => string): void {
		let seconds = Math.ceil(delayMs / 1000);
		this.show(message(seconds));
		this.countdown = setInterval(() => {
			seconds = Math.max(0, seconds - 1);
			this.loader?.setMessage(sanitizeTerminalText(message(seconds)));
		}, 1000);
	}

	clearIndicator(): void {
		if (this.countdown) clearInterval(this.countdown);
		this.countdown = undefined;
		this.loader?.stop();
		this.loader = undefined;
		this.clear();
		this.tui.requestRender();
	}
}
