/**
 * stderr diagnostics (docs/design/cli.md#diagnostics): `Error:` in red, `Warning:` in yellow, information dimmed.
 * Colour only when stderr is a terminal and `NO_COLOR` is unset.
 */
import { sanitizeTerminalText } from "@tau/tui/sanitize";

export interface Diagnostic {
	type: "info" | "warning" | "error";
	message: string;
}

function useColor(): boolean {
	const noColor = process.env.NO_COLOR;
	if (noColor !== undefined && noColor !== "") return false;
	return process.stderr.isTTY === true;
}

function paint(code: string, text: string): string {
	return useColor() ? `\x1b[${code}m${text}\x1b[0m` : text;
}

export function formatDiagnostic(diagnostic: Diagnostic): string {
	// Messages quote paths, names and errors from the project: a terminal gets them filtered (docs/security.md).
	const message = process.stderr.isTTY === true ? sanitizeTerminalText(diagnostic.message) : diagnostic.message;
	switch (diagnostic.type) {
		case "error":
			return paint("31", `Error: ${message}`);
		case "warning":
			return paint("33", `Warning: ${message}`);
		default:
			return paint("2", message);
	}
}

export function writeDiagnostic(diagnostic: Diagnostic): void {
	process.stderr.write(`${formatDiagnostic(diagnostic)}\n`);
}

export const reportWarning = (message: string): void => writeDiagnostic({ type: "warning", message });

/** A failure that ends startup with exit code 1 after its message has been written to stderr. */
export class StartupError extends Error {
	constructor(
		message: string,
		readonly exitCode = 1,
	) {
		super(message);
		this.name = "StartupError";
	}
}
