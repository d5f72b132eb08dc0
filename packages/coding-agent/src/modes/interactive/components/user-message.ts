import { type Component, Markdown, Spacer } from "@tau/tui";
import type { Theme } from "../../../core/resources/index.js";
import { markdownTheme } from "../theme/component-themes.js";
import { type MarkdownTransform, transformOptions } from "./markdown-transform.js";

/** A prompt the user sent, on the user-message background. */
export class UserMessageView implements Component {
	private readonly spacer = new Spacer(1);
	private readonly body: Markdown;
	private cache: { width: number; lines: string[] } | undefined;

	constructor(
		theme: Theme,
		readonly text: string,
		transform?: MarkdownTransform,
		timestamp?: number,
	) {
		this.body = new Markdown(
			text,
			1,
			1,
			markdownTheme(theme),
			{
				bgColor: (t) => theme.bg("userMessageBg", t),
				color: (t) => theme.fg("userMessageText", t),
			},
			transformOptions(transform, {
				messageType: "user",
				isStreaming: false,
				...(timestamp !== undefined ? { timestamp } : {}),
			}),
		);
	}

	invalidate(): void {
		this.cache = undefined;
		this.body.invalidate();
	}

	render(width: number): readonly string[] {
		if (this.cache?.width === width) return this.cache.lines;
		const lines = [...this.spacer.render(width), ...this.body.render(width)];
		this.cache = { width, lines };
		return lines;
	}
}
