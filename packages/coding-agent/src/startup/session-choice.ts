import type { SessionInfo } from "../core/session/index.js";
import { describeSessionMatch } from "../core/session/session-lookup.js";

/** The terminal as the question needs it: lines out, one answer in. */
export interface ChoiceIo {
	write(text: string): void;
	question(prompt: string): Promise<string>;
}

/**
 * Asks which of several sessions an ambiguous `--session` prefix meant, on the terminal before the
 * interactive mode starts. Returns the chosen session, or undefined when the answer is empty.
 */
export async function chooseSession(
	prefix: string,
	matches: readonly SessionInfo[],
	io: ChoiceIo,
): Promise<SessionInfo | undefined> {
	io.write(`Several sessions match '${prefix}':\n`);
	for (const [index, info] of matches.entries()) io.write(`  ${index + 1}. ${describeSessionMatch(info)}\n`);
	for (;;) {
		const answer = (await io.question(`Open which session? [1-${matches.length}, Enter to cancel] `)).trim();
		if (answer === "") {
			io.write("No session opened.\n");
			return undefined;
		}
		const index = Number(answer);
		if (Number.isInteger(index) && index >= 1 && index <= matches.length) return matches[index - 1];
		io.write(`Please answer a number from 1 to ${matches.length}, or press Enter to cancel.\n`);
	}
}

/** `ChoiceIo` over the process's stdin and stdout, released after each answer so the UI can take over. */
export function terminalChoiceIo(): ChoiceIo {
	return {
		write: (text) => process.stdout.write(text),
		question: async (prompt) => {
			const { createInterface } = await import("node:readline/promises");
			const terminal = createInterface({ input: process.stdin, output: process.stdout });
			try {
				return await terminal.question(prompt);
			} finally {
				terminal.close();
			}
		},
	};
}
