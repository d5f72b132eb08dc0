import { type Component, wrapTextWithAnsi } from "@tau/tui";

/** Pre-styled lines (help screens, session info) in the transcript, wrapped so nothing is cut. */
export class LinesBlock implements Component {
	constructor(private readonly lines: readonly string[]) {}

	invalidate(): void {}

	render(width: number): readonly string[] {
		const inner = Math.max(1, width - 1);
		return ["", ...this.lines.flatMap((line) => wrapTextWithAnsi(line, inner).map((part) => ` ${part}`))];
	}
}
