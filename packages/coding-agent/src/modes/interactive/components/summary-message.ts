import { type Component, Markdown, Spacer, sanitizeTerminalText, Text } from "@tau/tui";
import type { UiTheme } from "../theme/ui-theme.js";
import { type MarkdownTransform, transformOptions } from "./markdown-transform.js";

/**
 * A compaction or branch summary in the transcript: a one-line notice, and the summary's Markdown
 * while tool output is expanded.
 */
export class SummaryMessageView implements Component {
	private readonly heading: Text;
	private readonly body: Markdown;
	private expanded = false;

	constructor(theme: UiTheme, heading: string, summary: string, transform?: MarkdownTransform, timestamp?: number) {
		this.heading = new Text(theme.fg("muted", heading), 1, 0);
		this.body = new Markdown(
			sanitizeTerminalText(summary),
			1,
			0,
			theme.markdown(),
			undefined,
			transformOptions(transform, {
				messageType: "summary",
				isStreaming: false,
				...(timestamp !== undefined ? { timestamp } : {}),
			}),
		);
	}

	setExpanded(expanded: boolean): void {
		this.expanded = expanded;
	}

	invalidate(): void {
		this.heading.invalidate();
		this.body.invalidate();
	}

	render(width: number): readonly string[] {
		const heading = this.heading.render(width);
		if (!this.expanded) return heading;
		return [...heading, ...new Spacer(1).render(width), ...this.body.render(width)];
	}
}
