import { getKeybindings } from "../keys/keybindings.js";
import type { TUI } from "../tui/tui-base.js";
import { Text } from "./text.js";

const DEFAULT_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const DEFAULT_INTERVAL_MS = 80;

/** The animation of `Loader`: its frames and the time between them. */
export interface LoaderIndicator {
	frames?: string[];
	intervalMs?: number;
}

/** A spinner and a message; call `stop()` to clear its interval. */
export class Loader extends Text {
	private frames = DEFAULT_FRAMES;
	private intervalMs = DEFAULT_INTERVAL_MS;
	private custom = false;
	private frame = 0;
	private timer: ReturnType<typeof setInterval> | undefined;

	constructor(
		private readonly tui: Pick<TUI, "requestRender">,
		private readonly spinnerColor: (text: string) => string,
		private readonly messageColor: (text: string) => string,
		private message = "Loading...",
		indicator?: LoaderIndicator,
	) {
		super("", 1, 0);
		if (indicator) this.applyIndicator(indicator);
		this.updateText();
		this.start();
	}

	override render(width: number): readonly string[] {
		return ["", ...super.render(width)];
	}

	start(): void {
		this.stop();
		if (this.frames.length > 1) {
			this.timer = setInterval(() => {
				this.frame = (this.frame + 1) % this.frames.length;
				this.updateText();
				this.tui.requestRender();
			}, this.intervalMs);
		}
	}

	stop(): void {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
	}

	isRunning(): boolean {
		return this.timer !== undefined;
	}

	setMessage(message: string): void {
		this.message = message;
		this.updateText();
		this.tui.requestRender();
	}

	setIndicator(indicator: LoaderIndicator | undefined): void {
		const running = this.timer !== undefined;
		this.frames = DEFAULT_FRAMES;
		this.intervalMs = DEFAULT_INTERVAL_MS;
		this.custom = false;
		if (indicator) this.applyIndicator(indicator);
		this.frame = 0;
		this.updateText();
		if (running) this.start();
	}

	private applyIndicator(indicator: LoaderIndicator): void {
		if (indicator.frames) {
			this.frames = indicator.frames;
			this.custom = true;
		}
		if (indicator.intervalMs) this.intervalMs = indicator.intervalMs;
	}

	private updateText(): void {
		const frame = this.frames[this.frame % Math.max(1, this.frames.length)];
		const message = this.messageColor(this.message);
		if (frame === undefined) this.setText(message);
		else this.setText(`${this.custom ? frame : this.spinnerColor(frame)} ${message}`);
	}
}

/** A loader the user can cancel with `tui.select.cancel`; exposes an AbortSignal. */
export class CancellableLoader extends Loader {
	onAbort?: () => void;
	private readonly controller = new AbortController();

	get signal(): AbortSignal {
		return this.controller.signal;
	}

	get aborted(): boolean {
		return this.controller.signal.aborted;
	}

	handleInput(data: string): void {
		if (!getKeybindings().matches(data, "tui.select.cancel") || this.aborted) return;
		this.controller.abort();
		this.onAbort?.();
	}

	dispose(): void {
		this.stop();
	}
}
