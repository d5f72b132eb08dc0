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
 * `app.suspend` and an externally sent SIGTSTP (cli-modes.md §10.3): restore the terminal, stop the
 * process group, and on SIGCONT take the screen back with a full redraw.
 */
export class Suspender {
	private suspended = false;
	private listening = false;
	private readonly onTstp = () => this.suspend();

	constructor(
		private readonly tui: TUI,
		private readonly signals: ProcessSignals,
	) {}

	/** Handles SIGTSTP sent by `kill` (raw mode keeps the terminal from sending it on Ctrl+Z). */
	listen(): () => void {
		this.listening = true;
		this.signals.on("SIGTSTP", this.onTstp);
		return () => {
			this.listening = false;
			this.signals.off("SIGTSTP", this.onTstp);
		};
	}

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
		// Our own SIGTSTP listener would catch the stop signal; without it the default action stops us.
		if (this.listening) this.signals.off("SIGTSTP", this.onTstp);
		try {
			this.signals.stopProcessGroup();
		} finally {
			// Re-armed on a later turn of the loop, once the stop signal was delivered.
			if (this.listening)
				setImmediate(() => {
					if (this.listening) this.signals.on("SIGTSTP", this.onTstp);
				});
		}
	}
}
