import type { ImageContent } from "@tau/ai";
import type { ClipboardReader, Terminal, TuiMode } from "@tau/tui";
import type { Settings } from "../../config/index.js";
import type { FailureSources } from "./controller/process-failures.js";
import type { ProcessSignals } from "./controller/suspend.js";

/** Options of `InteractiveMode`: the first prompt and further messages, images, and how the session was started. */
export interface InteractiveModeOptions {
	/** First prompt (stdin/@file text and the first CLI message, already joined). */
	initialMessage?: string;
	/** Images from `@file` arguments, attached to the first prompt. */
	initialImages?: ImageContent[];
	/** Remaining CLI messages, each sent after the previous run settles. */
	messages?: string[];
	/** `--tui-mode`; default the `tuiMode` setting. */
	tuiMode?: TuiMode;
	/** `--verbose`: show startup details even with `quietStartup`. */
	verbose?: boolean;
	/**
	 * The process's runtime settings overrides (`--use-theme` gives `{ theme }`): applied with
	 * `applyOverrides` to every session's settings and again after `/reload`, whose settings reload drops them.
	 */
	settingsOverrides?: Settings;
	/** Startup diagnostics collected before the mode started (settings, migrations, deprecations). */
	diagnostics?: { type: "info" | "warning" | "error"; message: string }[];
	/** Startup detail lines (model scope, loaded context files/extensions/skills/templates/themes). */
	startupDetails?: string[];
	/** Default: a `ProcessTerminal` over stdin/stdout. */
	terminal?: Terminal;
	/** Where the resume hint goes after the UI stopped; default process.stdout. */
	stdout?: { write(text: string): void; isTTY?: boolean };
	/** Handle SIGINT/SIGTERM/SIGHUP (extension shutdown, exit 130/143/129); default true without `terminal`. */
	handleSignals?: boolean;
	/** Called with the exit code after shutdown; default `process.exit`. */
	exit?: (code: number) => void;
	/** Clock for double-press detection; default `Date.now`. */
	now?: () => number;
	/** Platform and environment that choose the default key bindings; default the process's. */
	platform?: NodeJS.Platform;
	env?: NodeJS.ProcessEnv;
	/** What `app.clipboard.pasteImage` reads; default the platform's clipboard helper. */
	readClipboard?: ClipboardReader;
	/** Job control for `app.suspend` and SIGTSTP; default the process's own signals. */
	processSignals?: ProcessSignals;
	/** Opens a link clicked in the fullscreen transcript; default the platform's browser opener. */
	openUrl?: (url: string) => void;
	/** Where a dead terminal (EIO) and uncaught exceptions are heard; default stdout/stderr and the process. */
	failureSources?: FailureSources;
}
