import type { AgentToolResult, AgentToolUpdateCallback } from "@tau/agent";
import type { BashOperations } from "../operations.js";
import { formatSize, type TruncationResult } from "../truncate.js";
import { ShellTimeoutError } from "./local-shell.js";
import { OutputAccumulator, type OutputSnapshot } from "./output-accumulator.js";

/** Minimum spacing of streamed progress updates. */
export const BASH_UPDATE_THROTTLE_MS = 100;

/** The `details` of a bash tool result: how the output was truncated and where the full output was saved. */
export interface BashToolDetails {
	truncation?: TruncationResult;
	fullOutputPath?: string;
}

export interface ShellStructuredResult {
	[key: string]: string | number | boolean;
	output: string;
	truncated: boolean;
	exit_code: number;
	wall_time_seconds: number;
}

/** Emits at most once per throttle window; a request inside a window is delivered when it closes. */
class ThrottledUpdates {
	private timer: NodeJS.Timeout | undefined;
	private dirty = false;
	constructor(private readonly emit: () => void) {}

	startWindow(): void {
		this.timer = setTimeout(() => this.windowClosed(), BASH_UPDATE_THROTTLE_MS);
	}

	request(): void {
		this.dirty = true;
		if (this.timer) return;
		this.flush();
		this.startWindow();
	}

	flush(): void {
		this.dirty = false;
		this.emit();
	}

	stop(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
	}

	private windowClosed(): void {
		this.timer = undefined;
		if (!this.dirty) return;
		this.flush();
		this.startWindow();
	}
}

function detailsOf(snapshot: OutputSnapshot): BashToolDetails | undefined {
	if (!snapshot.truncation.truncated) return undefined;
	const details: BashToolDetails = { truncation: snapshot.truncation };
	if (snapshot.fullOutputPath) details.fullOutputPath = snapshot.fullOutputPath;
	return details;
}

/** The model-facing text: the tail plus, when truncated, where the full output is. */
function renderOutput(snapshot: OutputSnapshot): string {
	const { truncation, fullOutputPath } = snapshot;
	if (!truncation.truncated) return truncation.content;
	const end = truncation.totalLines;
	const where = fullOutputPath ? ` Full output: ${fullOutputPath}` : "";
	if (truncation.lastLinePartial) {
		const lineSize = formatSize(snapshot.lastLineBytes);
		return `${truncation.content}\n\n[Showing last ${formatSize(truncation.outputBytes)} of line ${end} (line is ${lineSize}).${where}]`;
	}
	const start = end - truncation.outputLines + 1;
	const limit = truncation.truncatedBy === "bytes" ? ` (${formatSize(truncation.maxBytes)} limit)` : "";
	return `${truncation.content}\n\n[Showing lines ${start}-${end} of ${truncation.totalLines}${limit}.${where}]`;
}

function withStatus(output: string, status: string): string {
	return output ? `${output}\n\n${status}` : status;
}

function timeoutStatus(seconds: number, shellExit: ShellTimeoutError["shellExit"]): string {
	const status = `Command timed out after ${seconds} seconds`;
	if (!shellExit) return status;
	return `${status}. The shell exited with code ${shellExit.code} after ${shellExit.afterSeconds.toFixed(1)} seconds, but background processes kept writing until the timeout.`;
}

/**
 * Runs one command through a backend and turns its output and exit into a tool result
 * (docs/design/tools.md#bash). Shared by `bash` and `powershell`.
 */
export async function runShellCommand(
	ops: BashOperations,
	request: { command: string; cwd: string; env: NodeJS.ProcessEnv; timeout?: number; filePrefix: string },
	signal: AbortSignal | undefined,
	onUpdate: AgentToolUpdateCallback<BashToolDetails | undefined> | undefined,
): Promise<AgentToolResult<BashToolDetails | undefined>> {
	const output = new OutputAccumulator(request.filePrefix);
	const started = performance.now();
	const updates = onUpdate
		? new ThrottledUpdates(() => {
				const snapshot = output.snapshot();
				onUpdate({ content: [{ type: "text", text: snapshot.truncation.content }], details: detailsOf(snapshot) });
			})
		: undefined;
	onUpdate?.({ content: [], details: undefined });
	updates?.startWindow();

	const execOptions = {
		onData: (data: Buffer) => {
			output.append(data);
			updates?.request();
		},
		...(signal ? { signal } : {}),
		...(request.timeout !== undefined ? { timeout: request.timeout } : {}),
		env: request.env,
	};
	let exitCode: number | null;
	try {
		({ exitCode } = await ops.exec(request.command, request.cwd, execOptions));
	} catch (error) {
		updates?.stop();
		output.finish();
		const text = renderOutput(output.snapshot());
		const message = (error as Error).message ?? String(error);
		if (message === "aborted") throw new Error(withStatus(text, "Command aborted"));
		const timeout = /^timeout:(.+)$/.exec(message);
		if (timeout) {
			const shellExit = error instanceof ShellTimeoutError ? error.shellExit : undefined;
			throw new Error(withStatus(text, timeoutStatus(Number(timeout[1]), shellExit)));
		}
		throw error;
	}
	updates?.stop();
	output.finish();
	const snapshot = output.snapshot();
	updates?.flush();
	const text = renderOutput(snapshot);
	if (exitCode === null) throw new Error(withStatus(text, "Command terminated without an exit code"));

	const full = output.readFullOutput();
	const structured: ShellStructuredResult = {
		output: full.output,
		truncated: full.truncated,
		exit_code: exitCode,
		wall_time_seconds: Math.round((performance.now() - started) / 100) / 10,
	};
	if (full.truncated && snapshot.fullOutputPath) structured.full_output_path = snapshot.fullOutputPath;
	const details = detailsOf(snapshot);
	if (exitCode !== 0) {
		const body = text || "(no output)";
		return {
			content: [{ type: "text", text: `${body}\n\nCommand exited with code ${exitCode}` }],
			details,
			structuredContent: structured,
			isError: true,
		};
	}
	return { content: [{ type: "text", text: text || "(no output)" }], details, structuredContent: structured };
}
