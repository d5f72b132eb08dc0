import { type Component, Markdown, Spacer, sanitizeTerminalText, Text } from "@tau/tui";
import type { UiTheme } from "../theme/ui-theme.js";
import { type MarkdownTransform, transformOptions } from "./markdown-transform.js";

/** A titled block of changelog Markdown ("What's New", "Extension Updates", `/changelog`). */
export interface ChangelogSection {
	title: string;
	markdown: string;
}

/** Changelog sections in the transcript, each a bold title over its rendered Markdown. */
export class ChangelogView implements Component {
	private readonly parts: Component[] = [];

	constructor(theme: UiTheme, sections: readonly ChangelogSection[], transform?: MarkdownTransform) {
		for (const section of sections) {
			this.parts.push(
				new Spacer(1),
				new Text(theme.bold(theme.fg("accent", sanitizeTerminalText(section.title))), 1, 0),
				new Spacer(1),
				// Package changelogs are third-party text.
				new Markdown(
					sanitizeTerminalText(section.markdown),
					1,
					0,
					theme.markdown(),
					undefined,
					transformOptions(transform, { messageType: "changelog", isStreaming: false }),
				),
			);
		}
	}

	invalidate(): void {
		for (const part of this.parts) part.invalidate();
	}

	render(width: number): readonly string[] {
		return this.parts.flatMap((part) => [...part.render(width)]);
	}
}
