/**
 * Interactive mode (docs/design/interactive.md, docs/design/interactive.md#keybindings): the terminal UI over the session runtime.
 *
 *   runInteractiveMode(runtime: AgentSessionRuntime, options?: InteractiveModeOptions): Promise<number>
 *
 * Starts the renderer (fullscreen alternate screen by default, or the main screen), binds
 * extensions with `ctx.mode === "tui"` and a real `ctx.ui`, sends `options.initialMessage` (with
 * `initialImages`) and then each of `options.messages`, and runs until the user quits. The promise
 * resolves with the exit code after the terminal was restored and the runtime disposed; by default
 * `process.exit(code)` is then called too (pass `exit` to keep the process, as tests do).
 *
 * Options main.ts passes: `initialMessage`, `initialImages`, `messages` (remaining CLI messages),
 * `tuiMode` (`--tui-mode`), `verbose`, `settingsOverrides` (`--use-theme`), `diagnostics` (startup settings /
 * migration / deprecation warnings to show in the chat), `startupDetails` (loaded-resource listing
 * lines). Tests and embedders may
 * also pass `terminal`, `stdout`, `exit`, `handleSignals` (SIGINT/SIGTERM/SIGHUP → 130/143/129; default on when
 * no `terminal` is given), `now`, `platform`, `env`, and the outside-world hooks `readClipboard`
 * (Ctrl+V), `processSignals` (Ctrl+Z job control), `openUrl` (clicked links) and `failureSources`
 * (dead terminal → exit 129; uncaught exception → terminal restored, `tau-crash.log`, exit 1).
 *
 * This module imports `@tau/tui`; main.ts loads it with `await import()` so other modes never do.
 */
import type { AgentSessionRuntime } from "../../sdk/agent-session-runtime.js";
import { InteractiveMode } from "./interactive-mode.js";
import type { InteractiveModeOptions } from "./interactive-options.js";

export type { InteractiveModeOptions } from "./interactive-options.js";

export function runInteractiveMode(
	runtime: AgentSessionRuntime,
	options: InteractiveModeOptions = {},
): Promise<number> {
	return new InteractiveMode(runtime, options).run();
}
