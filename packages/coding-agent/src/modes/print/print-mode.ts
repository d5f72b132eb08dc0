import type { AssistantMessage } from "@tau/ai";
import { sanitizeTerminalText } from "@tau/tui/sanitize";
import { errorMessage } from "../../core/errors.js";
import type { AgentSessionRuntime } from "../../sdk/index.js";
import type { StdoutTakeover } from "../shared/index.js";
import { type OneShotInput, runPrompts } from "./one-shot.js";

const TRUNCATED = "Response was truncated: the model reached its output token limit.";

/** Model text reaching a terminal gets the interactive mode's filter; a pipe or file gets it byte-exact. */
function forStream(stream: { isTTY?: boolean }): (text: string) => string {
	return stream.isTTY ? (text) => sanitizeTerminalText(text) : (text) => text;
}

/**
 * Print mode with text output (docs/design/cli.md#print-mode): runs the prompts, then prints the text blocks of the session's last
 * assistant message. Returns the exit code; a failed or truncated answer is non-zero.
 */
export async function runTextMode(
	runtime: AgentSessionRuntime,
	input: OneShotInput,
	stdout: StdoutTakeover,
): Promise<number> {
	let code = 0;
	const toStdout = forStream(process.stdout);
	const toStderr = forStream(process.stderr);
	try {
		await runPrompts(runtime, input, { mode: "print" });
		const last = runtime.session.messages.at(-1);
		if (last?.role === "assistant") {
			const message = last as AssistantMessage;
			if (message.stopReason === "error" || message.stopReason === "aborted") {
				const fallback = message.stopReason === "error" ? "Request error" : "Request aborted";
				process.stderr.write(`${toStderr(message.errorMessage || fallback)}\n`);
				code = 1;
			} else {
				for (const block of message.content)
					if (block.type === "text") await stdout.writer.write(`${toStdout(block.text)}\n`);
				if (message.stopReason === "length") {
					process.stderr.write(`${TRUNCATED}\n`);
					code = 1;
				}
			}
		}
	} catch (error) {
		process.stderr.write(`${toStderr(errorMessage(error))}\n`);
		code = 1;
	} finally {
		await runtime.dispose().catch(() => undefined);
		await stdout.writer.flush();
		stdout.restore();
	}
	return code;
}
