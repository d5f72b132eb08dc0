import { type Component, truncateToWidth } from "@tau/tui";

/** Pre-styled lines (help screens, session info) in the transcript. */
export class LinesBlock implements Component {
	constructor(private readonly lines: readonly string[]) {}

	invalidate(): void {}

	render(width: number): readonly string[] {
		return ["", ...this.lines.map((line) => truncateToWidth(` ${line}`, width))];
	}
}
