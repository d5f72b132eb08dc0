import { type Component, sanitizeTerminalText, wrapTextWithAnsi } from "@tau/tui";

/** Pre-styled lines (help screens, session info) in the transcript, wrapped so nothing is cut; they may quote paths and names. */
export class LinesBlock implements Component {
	private readonly lines: readonly string[];

	constructor(lines: readonly string[]) {
		this.lines = lines.flatMap((line) => sanitizeTerminalText(line, { keepStyle: true }).split("\n"));
	}

	invalidate(): void {}

	render(width: number): readonly string[] {
		const inner = Math.max(1, width - 1);
		return ["", ...this.lines.flatMap((line) => wrapTextWithAnsi(line, inner).map((part) => ` ${part}`))];
	}
}
