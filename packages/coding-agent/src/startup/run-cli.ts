import type { ParsedArgs } from "../cli/args.js";
import { errorMessage } from "../core/errors.js";
import { type StdoutTakeover, takeOverStdout } from "../modes/shared/index.js";
import { formatDiagnostic, StartupError } from "./diagnostics.js";
import { resolveAppMode, runStartup } from "./run-startup.js";

/** Steps 10–11 of the dispatch order: mode, stdout takeover, then startup; errors become exit codes. */
export async function runCli(args: ParsedArgs, io: { stderr: (text: string) => void }): Promise<number> {
	const mode = resolveAppMode(args, { stdin: process.stdin.isTTY === true, stdout: process.stdout.isTTY === true });
	let takeover: StdoutTakeover | undefined;
	if (mode !== "interactive") takeover = takeOverStdout();
	try {
		return await runStartup(args, mode, takeover);
	} catch (error) {
		const message = errorMessage(error);
		if (message !== "") io.stderr(`${formatDiagnostic({ type: "error", message })}\n`);
		return error instanceof StartupError ? error.exitCode : 1;
	} finally {
		if (takeover) {
			await takeover.writer.flush();
			takeover.restore();
		}
	}
}
