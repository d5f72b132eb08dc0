import { execFileSync, spawn } from "node:child_process";
import { CLI, type Sandbox } from "./harness.js";

/** util-linux `script` gives the CLI a pseudo-terminal; tests that need one skip without it. */
export const hasScript = (() => {
	try {
		return execFileSync("sh", ["-c", "command -v script"], { encoding: "utf8" }).trim() !== "";
	} catch {
		return false;
	}
})();

function terminalCommand(args: string[]): string {
	return [process.execPath, CLI, ...args].map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(" ");
}

export interface TerminalRun {
	/** The exit code of `script`, which is the CLI's. */
	exited: Promise<number | null>;
	/** Everything the CLI wrote to its terminal (stdout and stderr share it). */
	output(): string;
	waitForOutput(text: string | RegExp): Promise<void>;
	/** Keystrokes go through the pseudo-terminal to tau, as if typed. */
	type(keys: string): void;
}

/** Runs the CLI under a pseudo-terminal until it exits. */
export function startCliInTerminal(box: Sandbox, args: string[], env: NodeJS.ProcessEnv = {}): TerminalRun {
	const child = spawn("script", ["-qec", terminalCommand(args), "/dev/null"], {
		cwd: box.project,
		env: { ...box.env, ...env },
		stdio: ["pipe", "pipe", "pipe"],
	});
	let output = "";
	const matches = (text: string | RegExp) => (typeof text === "string" ? output.includes(text) : text.test(output));
	const waiters: Array<{ text: string | RegExp; resolve: () => void }> = [];
	child.stdout.on("data", (chunk: Buffer) => {
		output += chunk.toString();
		for (const waiter of waiters.filter((w) => matches(w.text))) {
			waiters.splice(waiters.indexOf(waiter), 1);
			waiter.resolve();
		}
	});
	const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
	return {
		exited,
		output: () => output,
		waitForOutput: (text) =>
			new Promise<void>((resolve) => {
				if (matches(text)) resolve();
				else waiters.push({ text, resolve });
			}),
		type: (keys) => {
			child.stdin.write(keys);
		},
	};
}

/** Runs the CLI under a pseudo-terminal to its end. */
export async function runCliInTerminal(
	box: Sandbox,
	args: string[],
	env: NodeJS.ProcessEnv = {},
): Promise<{ status: number | null; output: string }> {
	const run = startCliInTerminal(box, args, env);
	const status = await run.exited;
	return { status, output: run.output() };
}
