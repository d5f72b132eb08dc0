import type { TUI } from "@tau/tui";
import { APP_NAME } from "../../../config/app-identity.js";
import { errorMessage } from "../../../core/errors.js";
import { type FailureSources, watchProcessFailures, writeCrashLog } from "./process-failures.js";

export interface ExitPathsHost {
	readonly tui: TUI;
	readonly agentDir: string;
	/** The orderly shutdown (extensions' `session_shutdown`, resume hint) with this exit code. */
	quit(options: { code: number; fromSignal: true }): void;
	/** Ctrl+Z's suspend, also for `kill -TSTP`. */
	suspend(): void;
	/** While suspended the shell owns Ctrl+C: a SIGINT then does not end tau. */
	readonly isSuspended: boolean;
}

export interface ExitPathsOptions {
	/** Called with the exit code; default `process.exit`. */
	exit?: (code: number) => void;
	failureSources?: FailureSources;
}

/**
 * Every way the interactive mode ends (docs/tui.md, terminal restore): signals, a dead terminal, a
 * crash and the orderly quit all end in `exit`, which settles `done` and exits the process.
 */
export class ExitPaths {
	/** Set once an exit began: later quits, prompts and renderer switches are ignored. */
	stopping = false;
	/** The SIGTSTP handler while signals are handled; each renderer listens only while it runs. */
	suspendSignalHandler: (() => void) | undefined;
	readonly done: Promise<number>;
	private settle: (code: number) => void = () => {};
	private removeHandlers: () => void = () => {};

	constructor(
		private readonly host: ExitPathsHost,
		private readonly options: ExitPathsOptions,
	) {
		this.done = new Promise((resolve) => {
			this.settle = resolve;
		});
	}

	/**
	 * SIGINT/SIGTERM/SIGHUP (a keyboard Ctrl+C is input, not a signal, in raw mode): the renderer
	 * restores the terminal on its own; here extensions get their `session_shutdown`, the tool
	 * processes tau started are ended on exit, and the process exits with 128 + the signal number.
	 */
	install(): void {
		const codes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
		const handlers: (() => void)[] = Object.entries(codes).map(([signal, code]) => {
			const handler = () => {
				if (signal === "SIGINT" && this.host.isSuspended) return;
				void this.host.quit({ code, fromSignal: true });
			};
			process.on(signal, handler);
			return () => {
				process.off(signal, handler);
			};
		});
		if (process.platform !== "win32") {
			this.suspendSignalHandler = () => this.host.suspend();
			this.host.tui.setSuspendSignalHandler(this.suspendSignalHandler);
			handlers.push(() => {
				this.suspendSignalHandler = undefined;
				this.host.tui.setSuspendSignalHandler(undefined);
			});
		}
		handlers.push(
			watchProcessFailures(
				{ deadTerminal: () => this.terminate(129), crashed: (error) => this.crash(error) },
				this.options.failureSources,
			),
		);
		this.removeHandlers = () => {
			for (const remove of handlers) remove();
		};
	}

	uninstall(): void {
		this.removeHandlers();
		this.removeHandlers = () => {};
	}

	/** Settles `done` and exits with `code`. */
	exit(code: number): void {
		this.uninstall();
		this.settle(code);
		(this.options.exit ?? ((exitCode: number) => process.exit(exitCode)))(code);
	}

	/** Exits at once: a dead terminal takes no more writes, and a crash has no state worth saving. */
	private terminate(code: number): void {
		this.stopping = true;
		this.exit(code);
	}

	/** An uncaught exception: give the terminal back, leave a crash log, exit 1. */
	private crash(error: unknown): void {
		try {
			this.host.tui.stop();
		} finally {
			const log = writeCrashLog(this.host.agentDir, error);
			process.stderr.write(`${APP_NAME} crashed: ${errorMessage(error)}${log ? `\nCrash log: ${log}` : ""}\n`);
			this.terminate(1);
		}
	}
}
