import { type Component, sanitizeTerminalText, truncateToWidth } from "@tau/tui";

/** Pre-styled lines (help screens, session info) in the transcript; they may quote paths and names. */
export class LinesBlock implements Component {
	private readonly lines: readonly string[];

	constructor(lines: readonly string[]) {
		this.lines = lines.flatMap((line) => sanitizeTerminalText(line, { keepStyle: true }).split("\n"));
	}

	invalidate(): void {}

	render(width: number): readonly string[] {
		return ["", ...this.lines.map((line) => truncateToWidth(` ${line}`, width))];
	}
}
