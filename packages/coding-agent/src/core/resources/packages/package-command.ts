import { spawn } from "node:child_process";

/** Captured output kept for error messages. */
const CAPTURE_LIMIT = 8000;

export interface PackageCommandOptions {
	cwd: string;
	/** `inherit` streams to the terminal; `capture` keeps the output (stdout is returned). */
	output: "inherit" | "capture";
	env?: NodeJS.ProcessEnv;
	/** Kill the command and fail after this many milliseconds (network lookups). */
	timeoutMs?: number;
}

/**
 * Runs one git or package-manager command without a shell. Resolves with stdout (empty when the
 * output is inherited); rejects with the command line, exit code and the captured output's tail.
 */
export function runPackageCommand(command: string, args: readonly string[], options: PackageCommandOptions) {
	const capture = options.output === "capture";
	const env = { ...(options.env ?? process.env) };
	if (capture) {
		// Nobody can answer a credential prompt while the TUI owns the terminal.
		env.GIT_TERMINAL_PROMPT = "0";
		env.GIT_SSH_COMMAND ??= "ssh -o BatchMode=yes";
	}
	return new Promise<string>((resolve, reject) => {
		let stdout = "";
		let tail = "";
		const child = spawn(command, args, {
			cwd: options.cwd,
			env,
			stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
		});
		const keep = (chunk: Buffer) => {
			tail = (tail + chunk.toString("utf8")).slice(-CAPTURE_LIMIT);
		};
		child.stdout?.on("data", (chunk: Buffer) => {
			stdout += chunk.toString("utf8");
			keep(chunk);
		});
		child.stderr?.on("data", keep);
		let timedOut = false;
		const timer =
			options.timeoutMs === undefined
				? undefined
				: setTimeout(() => {
						timedOut = true;
						child.kill("SIGKILL");
					}, options.timeoutMs);
		child.on("error", (error) => {
			clearTimeout(timer);
			reject(new Error(`${command} failed to start: ${error.message}`));
		});
		child.on("close", (code) => {
			clearTimeout(timer);
			if (timedOut) reject(new Error(`${[command, ...args].join(" ")} timed out after ${options.timeoutMs} ms`));
			else if (code === 0) resolve(stdout);
			else {
				const detail = tail.trim();
				reject(new Error(`${[command, ...args].join(" ")} exited with ${code}${detail ? `: ${detail}` : ""}`));
			}
		});
	});
}
