import { constants as bufferConstants } from "node:buffer";
import { spawn } from "node:child_process";
import { constants as osConstants } from "node:os";
import { StringDecoder } from "node:string_decoder";
import { trackChild } from "../../tools/shell/process-group.js";
import type { ExecOptions, ExecResult } from "../api/extension-api.js";

const DEFAULT_MAX_BUFFER = Math.min(256 * 1024 * 1024, bufferConstants.MAX_STRING_LENGTH);
/** Time a process gets between SIGTERM and SIGKILL. */
export const EXEC_KILL_GRACE_MS = 5000;

function validMaxBuffer(value: number | undefined): number {
	if (value === undefined) return DEFAULT_MAX_BUFFER;
	if (!Number.isInteger(value) || value < 0 || value > bufferConstants.MAX_STRING_LENGTH) {
		throw new RangeError(
			`maxBuffer must be an integer between 0 and ${bufferConstants.MAX_STRING_LENGTH}, got ${String(value)}`,
		);
	}
	return value;
}

function signalCode(signal: NodeJS.Signals): number {
	return 128 + (osConstants.signals[signal] ?? 0);
}

/** `pi.exec`: spawns without a shell and never rejects (spawn errors resolve with code 1). */
export function execCommand(
	command: string,
	args: string[],
	options: ExecOptions & { cwd: string },
): Promise<ExecResult> {
	let maxBuffer: number;
	try {
		maxBuffer = validMaxBuffer(options.maxBuffer);
	} catch (error) {
		return Promise.reject(error);
	}
	return new Promise((resolve) => {
		let stdout = "";
		let stderr = "";
		let killed = false;
		let truncated = false;
		let settled = false;
		let killTimer: NodeJS.Timeout | undefined;
		let timeoutTimer: NodeJS.Timeout | undefined;
		const child = spawn(command, args, { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] });
		// Ended with tau, like tool commands.
		trackChild(child, "process");

		const terminate = () => {
			if (killed || child.exitCode !== null) return;
			killed = true;
			child.kill("SIGTERM");
			killTimer = setTimeout(() => child.kill("SIGKILL"), EXEC_KILL_GRACE_MS);
			killTimer.unref();
		};
		const onAbort = () => terminate();
		const finish = (result: ExecResult) => {
			if (settled) return;
			settled = true;
			clearTimeout(killTimer);
			clearTimeout(timeoutTimer);
			options.signal?.removeEventListener("abort", onAbort);
			resolve(result);
		};

		const collect = (decoder: StringDecoder, target: "stdout" | "stderr") => (chunk: Buffer) => {
			if (truncated) return;
			const text = decoder.write(chunk);
			const room = maxBuffer - stdout.length - stderr.length;
			const kept = text.length > room ? text.slice(0, room) : text;
			if (target === "stdout") stdout += kept;
			else stderr += kept;
			if (text.length > room) {
				truncated = true;
				child.stdout?.destroy();
				child.stderr?.destroy();
				terminate();
			}
		};
		const outDecoder = new StringDecoder("utf8");
		const errDecoder = new StringDecoder("utf8");
		child.stdout?.on("data", collect(outDecoder, "stdout"));
		child.stderr?.on("data", collect(errDecoder, "stderr"));

		child.on("error", (error) => {
			finish({ stdout, stderr: stderr + error.message, code: 1, killed, truncated });
		});
		child.on("close", (code, signal) => {
			if (!truncated) {
				stdout += outDecoder.end();
				stderr += errDecoder.end();
			}
			let exitCode = signal ? signalCode(signal) : (code ?? 1);
			// A truncated result must never look like success.
			if (truncated && exitCode === 0) exitCode = 1;
			finish({ stdout, stderr, code: exitCode, killed, truncated });
		});

		if (options.signal?.aborted) terminate();
		else options.signal?.addEventListener("abort", onAbort, { once: true });
		if (options.timeout !== undefined && options.timeout > 0) timeoutTimer = setTimeout(terminate, options.timeout);
	});
}
