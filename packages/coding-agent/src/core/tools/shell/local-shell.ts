import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { constants } from "node:os";
import type { BashOperations } from "../operations.js";
import { killProcessTree, trackChild } from "./process-group.js";

/** Largest timer delay Node accepts, in seconds. */
const MAX_TIMEOUT_SECONDS = 2_147_483.647;

/** Raised for `timeout:<seconds>`; records whether the shell itself had exited before the deadline. */
export class ShellTimeoutError extends Error {
	constructor(
		readonly seconds: number,
		readonly shellExit?: { code: number; afterSeconds: number },
	) {
		super(`timeout:${seconds}`);
	}
}

function onPath(name: string): boolean {
	const probe = spawnSync(process.platform === "win32" ? "where" : "which", [name], { stdio: "ignore" });
	return probe.status === 0;
}

/** Picks the shell binary and its arguments (docs/design/tools.md#local-shell). */
export function getShellConfig(shellPath?: string): { shell: string; args: string[] } {
	if (shellPath) {
		if (!existsSync(shellPath)) throw new Error(`Custom shell path not found: ${shellPath}`);
		return { shell: shellPath, args: ["-c"] };
	}
	if (process.platform === "win32") {
		const candidates = [
			process.env.ProgramFiles && `${process.env.ProgramFiles}\\Git\\bin\\bash.exe`,
			process.env["ProgramFiles(x86)"] && `${process.env["ProgramFiles(x86)"]}\\Git\\bin\\bash.exe`,
		].filter((candidate): candidate is string => Boolean(candidate));
		const found = candidates.find((candidate) => existsSync(candidate));
		if (found) return { shell: found, args: ["-c"] };
		if (onPath("bash.exe")) return { shell: "bash.exe", args: ["-c"] };
		throw new Error(
			`No bash shell found. Install Git for Windows (Git Bash), put bash.exe on PATH, or set shellPath. Looked in: ${candidates.join(", ")}`,
		);
	}
	if (existsSync("/bin/bash")) return { shell: "/bin/bash", args: ["-c"] };
	if (onPath("bash")) return { shell: "bash", args: ["-c"] };
	return { shell: "sh", args: ["-c"] };
}

/** Validates a timeout in seconds for the local backend. */
export function validateTimeout(seconds: number): void {
	if (!Number.isFinite(seconds) || seconds <= 0)
		throw new Error("Invalid timeout: must be a finite number of seconds");
	if (seconds > MAX_TIMEOUT_SECONDS) throw new Error(`Invalid timeout: maximum is ${MAX_TIMEOUT_SECONDS} seconds`);
}

function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
	if (code !== null) return code;
	if (signal) return 128 + (constants.signals[signal] ?? 0);
	return 1;
}

/** PowerShell 7, then Windows PowerShell (docs/design/tools.md#local-shell). */
export function getPowerShellConfig(): { shell: string; args: string[] } {
	const args = ["-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command"];
	if (onPath("pwsh.exe")) return { shell: "pwsh.exe", args };
	const pwsh7 = `${process.env.ProgramFiles ?? "C:\\Program Files"}\\PowerShell\\7\\pwsh.exe`;
	if (existsSync(pwsh7)) return { shell: pwsh7, args };
	if (onPath("powershell.exe")) return { shell: "powershell.exe", args };
	const windowsPowerShell = `${process.env.SystemRoot ?? "C:\\Windows"}\\System32\\WindowsPowerShell\\v1.0\\powershell.exe`;
	if (existsSync(windowsPowerShell)) return { shell: windowsPowerShell, args };
	throw new Error("No PowerShell found: install PowerShell 7 (pwsh) or enable Windows PowerShell.");
}

/**
 * The local shell backend: the command runs in its own process group, and abort or timeout kill
 * the whole group (background children included).
 */
export function createLocalBashOperations(options: { shellPath?: string } = {}): BashOperations {
	return createLocalShellOperations("bash", () => getShellConfig(options.shellPath));
}

/** Operations that run PowerShell commands on this machine, for the PowerShell tool or a `user_bash` handler. */
export function createLocalPowerShellOperations(): BashOperations {
	return createLocalShellOperations("powershell", getPowerShellConfig);
}

function createLocalShellOperations(
	label: string,
	resolveBinary: () => { shell: string; args: string[] },
): BashOperations {
	return {
		exec(command, cwd, { onData, signal, timeout, env }) {
			if (timeout !== undefined) validateTimeout(timeout);
			if (!existsSync(cwd)) {
				throw new Error(`Working directory does not exist: ${cwd}\nCannot execute ${label} commands.`);
			}
			if (signal?.aborted) throw new Error("aborted");
			const { shell, args } = resolveBinary();
			return new Promise((resolve, reject) => {
				const started = performance.now();
				const child = spawn(shell, [...args, command], {
					cwd,
					env: env ?? process.env,
					detached: process.platform !== "win32",
					stdio: ["ignore", "pipe", "pipe"],
					windowsHide: true,
				});
				trackChild(child);
				let settled = false;
				let shellExit: { code: number; afterSeconds: number } | undefined;
				let timer: NodeJS.Timeout | undefined;
				let drainTimer: NodeJS.Timeout | undefined;
				const openPipes = new Set([child.stdout, child.stderr]);

				const finish = (outcome: () => void) => {
					if (settled) return;
					settled = true;
					if (timer) clearTimeout(timer);
					if (drainTimer) clearTimeout(drainTimer);
					signal?.removeEventListener("abort", onAbort);
					child.stdout.destroy();
					child.stderr.destroy();
					outcome();
				};
				const onAbort = () => {
					killProcessTree(child);
					finish(() => reject(new Error("aborted")));
				};
				signal?.addEventListener("abort", onAbort, { once: true });
				if (timeout !== undefined) {
					timer = setTimeout(() => {
						killProcessTree(child);
						finish(() => reject(new ShellTimeoutError(timeout, shellExit)));
					}, timeout * 1000);
				}

				for (const pipe of openPipes) {
					pipe.on("data", (data: Buffer) => {
						if (!settled) onData(data);
					});
					pipe.once("close", () => {
						openPipes.delete(pipe);
						if (openPipes.size === 0 && shellExit) finish(() => resolve({ exitCode: shellExit?.code ?? 1 }));
					});
				}
				child.once("error", (error) => finish(() => reject(error)));
				child.once("exit", (code, exitSignal) => {
					shellExit = { code: exitCodeOf(code, exitSignal), afterSeconds: (performance.now() - started) / 1000 };
					const exit = shellExit;
					if (openPipes.size === 0) finish(() => resolve({ exitCode: exit.code }));
					// Without a deadline, descendants holding the pipes must not keep the call open:
					// give the pipes a moment to drain what the shell wrote, then stop reading.
					else if (timeout === undefined)
						drainTimer = setTimeout(() => finish(() => resolve({ exitCode: exit.code })), 100);
				});
			});
		},
	};
}
