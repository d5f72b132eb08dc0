import { EventEmitter } from "node:events";
import { type AuthCommandOptions, runAuthCommand } from "../../src/cli/auth-command.js";
import type { TerminalInput } from "../../src/cli/terminal-interaction.js";

/** A raw-mode capable keyboard whose `answers` are typed one per prompt, after the prompt is shown. */
export class FakeKeyboard extends EventEmitter implements TerminalInput {
	isRaw = false;
	readonly rawModes: boolean[] = [];
	setRawMode(mode: boolean) {
		this.isRaw = mode;
		this.rawModes.push(mode);
	}
	resume() {}
	pause() {}
}

export function scriptedTerminal(answers: string[]) {
	const input = new FakeKeyboard();
	let written = "";
	const output = {
		write(text: string) {
			written += text;
			// Every prompt line ends with ": "; the keyboard answers once the prompt has started reading.
			if (text.endsWith(": ") && answers.length > 0) {
				const answer = answers.shift()!;
				queueMicrotask(() => input.emit("data", Buffer.from(answer)));
			}
		},
	};
	return { input, output, written: () => written };
}

/** Runs `tau auth …` in-process and collects its exit code and output. */
export async function runAuth(
	argv: string[],
	options: AuthCommandOptions,
): Promise<{ code: number; stdout: string; stderr: string }> {
	let stdout = "";
	let stderr = "";
	const code = await runAuthCommand(
		argv,
		{ stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
		options,
	);
	return { code, stdout, stderr };
}
