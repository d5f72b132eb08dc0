import { type Component, Markdown, Spacer, Text } from "@tau/tui";
import type { Theme } from "../../../core/resources/index.js";
import { markdownTheme } from "../theme/component-themes.js";
import { type MarkdownTransform, transformOptions } from "./markdown-transform.js";

/** The collapsed headings of the summaries compaction and branch navigation leave in a session. */
export const COMPACTION_SUMMARY_HEADING = "[compacted] Earlier conversation summarized";
export const BRANCH_SUMMARY_HEADING = "[branch summary] Returned from another branch";

/**
 * A compaction or branch summary in the transcript: a one-line notice, and the summary's Markdown
 * while tool output is expanded.
 */
export class SummaryMessageView implements Component {
	private readonly heading: Text;
	private readonly body: Markdown;
	private expanded = false;

	constructor(theme: Theme, heading: string, summary: string, transform?: MarkdownTransform, timestamp?: number) {
		this.heading = new Text(theme.fg("muted", heading), 1, 0);
		this.body = new Markdown(
			summary,
			1,
			0,
			markdownTheme(theme),
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
