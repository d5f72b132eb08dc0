import { CancellableLoader, type Component, Container, Loader, Spacer, Text, type TUI } from "@tau/tui";
import type { Theme } from "../../../core/resources/index.js";
import { keyHint } from "../keybindings/key-hints.js";
import { activeTheme } from "../theme/active-theme.js";

/** A horizontal rule as wide as the view, in `color` (default: the active theme's `border`). */
export class DynamicBorder implements Component {
	private readonly color: (text: string) => string;

	constructor(color?: (text: string) => string) {
		this.color = color ?? ((text) => activeTheme().fg("border", text));
	}

	invalidate(): void {}

	render(width: number): string[] {
		return [this.color("─".repeat(Math.max(1, width)))];
	}
}

/**
 * A spinner with a message between two borders, for extension UI that waits on work. Cancellable
 * (the default) means Escape aborts `signal` and calls `onAbort`; the key hint says so.
 */
export class BorderedLoader extends Container {
	private readonly loader: Loader | CancellableLoader;
	private readonly cancellable: boolean;
	private readonly controller = new AbortController();

	constructor(tui: TUI, theme: Theme, message: string, options: { cancellable?: boolean } = {}) {
		super();
		this.cancellable = options.cancellable ?? true;
		const border = (text: string) => theme.fg("border", text);
		const spinner = (text: string) => theme.fg("accent", text);
		const muted = (text: string) => theme.fg("muted", text);
		this.loader = this.cancellable
			? new CancellableLoader(tui, spinner, muted, message)
			: new Loader(tui, spinner, muted, message);
		this.addChild(new DynamicBorder(border));
		this.addChild(this.loader);
		if (this.cancellable) {
			this.addChild(new Spacer(1));
			this.addChild(new Text(keyHint("tui.select.cancel", "cancel"), 1, 0));
		}
		this.addChild(new Spacer(1));
		this.addChild(new DynamicBorder(border));
	}

	/** Aborted when the user cancels (never, for a loader that is not cancellable). */
	get signal(): AbortSignal {
		return this.loader instanceof CancellableLoader ? this.loader.signal : this.controller.signal;
	}

	set onAbort(handler: (() => void) | undefined) {
		if (this.loader instanceof CancellableLoader) this.loader.onAbort = handler;
	}

	handleInput(data: string): void {
		if (this.loader instanceof CancellableLoader) this.loader.handleInput(data);
	}

	dispose(): void {
		if (this.loader instanceof CancellableLoader) this.loader.dispose();
		else this.loader.stop();
	}
}
