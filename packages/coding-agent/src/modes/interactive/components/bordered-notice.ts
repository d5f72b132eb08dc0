import { type Component, sanitizeTerminalText, truncateToWidth } from "@tau/tui";
import type { UiTheme } from "../theme/ui-theme.js";

/** One line of text between two horizontal rules, shown in place of the editor (`/reload`). */
export class BorderedNotice implements Component {
	constructor(
		private readonly theme: UiTheme,
		private readonly text: string,
	) {}

	invalidate(): void {}

	render(width: number): readonly string[] {
		const rule = this.theme.fg("border", "─".repeat(Math.max(0, width)));
		const text = sanitizeTerminalText(this.text, { keepStyle: true }).replace(/\n/g, " ");
		return [rule, truncateToWidth(` ${text}`, width), rule];
	}
}
