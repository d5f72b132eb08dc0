import { spawn } from "node:child_process";

export interface CliResult {
	exitCode: number | null;
	stdout: Buffer;
	stderr: string;
}

/** Runs the container CLI (`docker`, `podman`) with arguments, never through a shell. */
export function runContainerCli(
	cli: string,
	args: readonly string[],
	options: { input?: string | Buffer; signal?: AbortSignal; onData?: (data: Buffer) => void } = {},
): Promise<CliResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(cli, args, {
			stdio: ["pipe", "pipe", "pipe"],
			...(options.signal ? { signal: options.signal } : {}),
		});
		const stdout: Buffer[] = [];
		let stderr = "";
		child.stdout.on("data", (data: Buffer) => {
			stdout.push(data);
			options.onData?.(data);
		});
		child.stderr.on("data", (data: Buffer) => {
			stderr += data.toString("utf8");
			options.onData?.(data);
		});
		child.on("error", reject);
		child.on("close", (code) => resolve({ exitCode: code, stdout: Buffer.concat(stdout), stderr }));
		child.stdin.on("error", () => undefined);
		child.stdin.end(options.input ?? "");
	});
}

/** Like `runContainerCli`, but a non-zero exit throws with the CLI's own message. */
export async function containerCliOrThrow(cli: string, args: readonly string[], input?: string | Buffer) {
	const result = await runContainerCli(cli, args, input !== undefined ? { input } : {});
	if (result.exitCode !== 0) {
		throw new Error(result.stderr.trim() || `${cli} ${args[0]} exited with status ${result.exitCode}`);
	}
	return result.stdout;
}
