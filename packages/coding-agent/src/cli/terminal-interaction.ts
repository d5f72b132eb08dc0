import type { AuthInteraction, AuthNotification, AuthPrompt } from "@tau/ai";

/** The keyboard side of a terminal: raw mode turns off echo and line editing while a prompt reads. */
export interface TerminalInput {
	on(event: "data", listener: (chunk: Buffer | string) => void): unknown;
	off(event: "data", listener: (chunk: Buffer | string) => void): unknown;
	resume(): unknown;
	pause(): unknown;
	setRawMode?(mode: boolean): unknown;
	isRaw?: boolean;
}

/** Where prompts and notices go (stderr in the CLI, so stdout stays free for results). */
export interface TerminalOutput {
	write(text: string): unknown;
}

export interface TerminalInteractionOptions {
	input: TerminalInput;
	output: TerminalOutput;
	/** Aborted on Ctrl+C inside a prompt; the login flow sees it through `signal`. */
	controller: AbortController;
	/** Opens sign-in URLs; absent with `--no-browser`, so the URL is only shown. */
	openUrl?: (url: string) => void;
}

export class LoginCancelledError extends Error {
	constructor() {
		super("Login cancelled");
		this.name = "LoginCancelledError";
	}
}

const CTRL_C = "\u0003";
const CTRL_D = "\u0004";
const ESC = "\u001b";

/**
 * Reads one line in raw mode, echoing typed characters unless the line is secret. Ctrl+C aborts
 * the controller, Ctrl+D on an empty line cancels; escape sequences (arrow keys) are ignored.
 */
export function readTerminalLine(
	options: TerminalInteractionOptions,
	{ secret, withdrawn }: { secret: boolean; withdrawn?: AbortSignal | undefined },
): Promise<string> {
	const { input, output, controller } = options;
	const signal = withdrawn ? AbortSignal.any([controller.signal, withdrawn]) : controller.signal;
	if (signal.aborted) return Promise.reject(new LoginCancelledError());
	return new Promise<string>((resolve, reject) => {
		const wasRaw = input.isRaw === true;
		let line = "";
		let inEscape = false;
		const finish = (result: { line: string } | { error: Error }) => {
			input.off("data", onData);
			signal.removeEventListener("abort", onAbort);
			input.setRawMode?.(wasRaw);
			input.pause();
			output.write("\n");
			if ("line" in result) resolve(result.line);
			else reject(result.error);
		};
		const onAbort = () => finish({ error: new LoginCancelledError() });
		const onData = (chunk: Buffer | string) => {
			for (const char of chunk.toString()) {
				if (inEscape) {
					// CSI sequences end with a letter or `~`; a lone ESC followed by text ends at once.
					if (/[A-Za-z~]/.test(char)) inEscape = false;
					continue;
				}
				if (char === CTRL_C) {
					controller.abort(new LoginCancelledError());
					return;
				}
				if (char === CTRL_D && line === "") return finish({ error: new LoginCancelledError() });
				if (char === "\r" || char === "\n") return finish({ line });
				if (char === ESC) {
					inEscape = true;
				} else if (char === "\u007f" || char === "\b") {
					if (line.length > 0) {
						line = [...line].slice(0, -1).join("");
						if (!secret) output.write("\b \b");
					}
				} else if (char >= " ") {
					line += char;
					if (!secret) output.write(char);
				}
			}
		};
		signal.addEventListener("abort", onAbort, { once: true });
		input.setRawMode?.(true);
		input.on("data", onData);
		input.resume();
	});
}

async function ask(options: TerminalInteractionOptions, prompt: AuthPrompt): Promise<string> {
	const { output } = options;
	switch (prompt.type) {
		case "secret": {
			output.write(`${prompt.message} (input hidden): `);
			return readTerminalLine(options, { secret: true });
		}
		case "select": {
			output.write(`${prompt.message}\n`);
			prompt.options.forEach((option, index) => {
				output.write(`  ${index + 1}. ${option.label}${option.hint ? ` — ${option.hint}` : ""}\n`);
			});
			for (;;) {
				output.write(`Choose 1-${prompt.options.length}: `);
				const answer = (await readTerminalLine(options, { secret: false })).trim();
				const chosen =
					prompt.options[Number(answer) - 1] ?? prompt.options.find((option) => option.value === answer);
				if (chosen) return chosen.value;
				output.write(`Not an option: ${answer}\n`);
			}
		}
		default: {
			const fallback = prompt.type === "text" ? prompt.default : undefined;
			output.write(`${prompt.message}${fallback ? ` [${fallback}]` : ""}: `);
			// A pasted code is no longer read once the browser has delivered it.
			const withdrawn = prompt.type === "manual_code" ? prompt.signal : undefined;
			const answer = await readTerminalLine(options, { secret: false, withdrawn });
			return answer === "" && fallback !== undefined ? fallback : answer;
		}
	}
}

function describe(notification: AuthNotification): string {
	switch (notification.type) {
		case "auth_url":
			return `${notification.instructions ?? "Open this URL to sign in:"}\n  ${notification.url}`;
		case "device_code":
			return `${notification.instructions ?? "Enter this code"}: ${notification.code}\n  at ${notification.url}`;
		default:
			return notification.message;
	}
}

/**
 * How `tau auth login` talks to the user on a terminal: prompts and notices on the output stream,
 * answers from the keyboard, secrets read without echo.
 */
export function createTerminalInteraction(options: TerminalInteractionOptions): AuthInteraction {
	return {
		signal: options.controller.signal,
		prompt: (prompt) => ask(options, prompt),
		notify: (notification) => {
			options.output.write(`${describe(notification)}\n`);
			if (notification.type === "auth_url" && options.openUrl) options.openUrl(notification.url);
		},
	};
}
