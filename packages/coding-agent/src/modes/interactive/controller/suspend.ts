import type { TUI } from "@tau/tui";

/** The process signals job control needs; replaceable so the flow can be driven without stopping the process. */
export interface ProcessSignals {
	on(signal: NodeJS.Signals, handler: () => void): void;
	off(signal: NodeJS.Signals, handler: () => void): void;
	/** Stops the whole process group, as the terminal's own Ctrl+Z would. */
	stopProcessGroup(): void;
}

export const processSignals: ProcessSignals = {
	on: (signal, handler) => process.on(signal, handler),
	off: (signal, handler) => process.off(signal, handler),
	stopProcessGroup: () => process.kill(0, "SIGTSTP"),
};

/**
 * `app.suspend` and an externally sent SIGTSTP (docs/design/interactive.md#submission-and-keys): restore the terminal, stop the
 * process group, and on SIGCONT take the screen back with a full redraw. The renderer listens for
 * SIGTSTP only while running, so stopping it first lets the signal's default action stop us.
 */
export class Suspender {
	private suspended = false;

	/** While suspended a Ctrl+C belongs to the shell: it must not end tau. */
	get isSuspended(): boolean {
		return this.suspended;
	}

	constructor(
		private readonly tui: TUI,
		private readonly signals: ProcessSignals,
	) {}

	suspend(): void {
		if (this.suspended) return;
		this.suspended = true;
		this.tui.stop({ preserveScreen: this.tui.mode === "fullscreen" });
		// While stopped: a Ctrl+C meant for the shell must not kill us, and an empty loop must not exit.
		const ignoreInterrupt = () => {};
		const keepAlive = setInterval(() => {}, 1 << 30);
		this.signals.on("SIGINT", ignoreInterrupt);
		const resume = () => {
			this.signals.off("SIGCONT", resume);
			this.signals.off("SIGINT", ignoreInterrupt);
			clearInterval(keepAlive);
			this.suspended = false;
			this.tui.start();
			this.tui.requestRender(true);
		};
		this.signals.on("SIGCONT", resume);
		this.signals.stopProcessGroup();
	}
}
