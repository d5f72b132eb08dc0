import { Box, type Component, Markdown, Spacer, sanitizeTerminalText, Text } from "@tau/tui";
import { keyText } from "../keybindings/key-hints.js";
import type { UiTheme } from "../theme/ui-theme.js";
import { type MarkdownTransform, transformOptions } from "./markdown-transform.js";

/** What a summary block says: its label, its collapsed line and the heading above the expanded summary. */
export interface SummaryKind {
	label: string;
	collapsed: string;
	heading: string;
}

/** The block for a compaction summary, as pi shows it (`tokensBefore` grouped by thousands). */
export function compactionSummaryKind(tokensBefore: number): SummaryKind {
	const tokens = tokensBefore.toLocaleString("en-US");
	return {
		label: "[compaction]",
		collapsed: `Compacted from ${tokens} tokens`,
		heading: `Compacted from ${tokens} tokens`,
	};
}

export const BRANCH_SUMMARY_KIND: SummaryKind = {
	label: "[branch]",
	collapsed: "Branch summary",
	heading: "Branch Summary",
};

/**
 * A compaction or branch summary in the transcript, in the custom-message colours: a label and a
 * line naming the expand key; with tool output expanded, the summary's Markdown under a bold heading.
 */
export class SummaryMessageView implements Component {
	private readonly collapsedBox: Box;
	private readonly expandedBox: Box;
	private expanded = false;

	constructor(theme: UiTheme, kind: SummaryKind, summary: string, transform?: MarkdownTransform, timestamp?: number) {
		const text = (value: string) => theme.fg("customMessageText", value);
		const label = () => new Text(theme.bold(theme.fg("customMessageLabel", kind.label)), 0, 0);
		const box = () => new Box(1, 1, (line) => theme.bg("customMessageBg", line));
		const key = keyText("app.tools.expand");
		this.collapsedBox = box();
		this.collapsedBox.addChild(label());
		this.collapsedBox.addChild(new Spacer(1));
		this.collapsedBox.addChild(
			new Text(
				key ? `${text(`${kind.collapsed} (`)}${theme.fg("dim", key)}${text(" to expand)")}` : text(kind.collapsed),
				0,
				0,
			),
		);
		// Transformers see the summary alone, not the heading put above it.
		const heading = `**${kind.heading}**\n\n`;
		this.expandedBox = box();
		this.expandedBox.addChild(label());
		this.expandedBox.addChild(new Spacer(1));
		this.expandedBox.addChild(
			new Markdown(
				heading + sanitizeTerminalText(summary),
				0,
				0,
				theme.markdown(),
				{ color: text },
				transformOptions(
					transform,
					{ messageType: "summary", isStreaming: false, ...(timestamp !== undefined ? { timestamp } : {}) },
					heading,
				),
			),
		);
	}

	setExpanded(expanded: boolean): void {
		this.expanded = expanded;
	}

	invalidate(): void {
		this.collapsedBox.invalidate();
		this.expandedBox.invalidate();
	}

	render(width: number): readonly string[] {
		return [...new Spacer(1).render(width), ...(this.expanded ? this.expandedBox : this.collapsedBox).render(width)];
	}
}
