import { execFile } from "node:child_process";

/** Runs `tmux <args>` and resolves with its stdout. */
export type TmuxQuery = (args: string[]) => Promise<string>;

const runTmux: TmuxQuery = (args) =>
	new Promise((resolve, reject) => {
		execFile("tmux", args, { timeout: 2000 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
	});

/**
 * Inside tmux with `extended-keys` off, Shift+Enter, Ctrl+Enter and other modified keys reach tau as
 * their plain forms (docs/design/interactive.md#startup). Returns the warning to show, if any.
 */
export async function tmuxKeyboardWarning(
	env: NodeJS.ProcessEnv,
	query: TmuxQuery = runTmux,
): Promise<string | undefined> {
	if (!env.TMUX) return undefined;
	let value: string;
	try {
		value = (await query(["show-options", "-gv", "extended-keys"])).trim();
	} catch {
		// An old tmux without the option (or no tmux binary): nothing reliable to say.
		return undefined;
	}
	if (value === "on" || value === "always") return undefined;
	return "tmux does not pass modified keys (Shift+Enter, Ctrl+Enter, …) through; add `set -g extended-keys on` to your tmux.conf and restart tmux";
}
