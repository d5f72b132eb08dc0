import { type Component, Markdown, Spacer, sanitizeTerminalText } from "@tau/tui";
import type { UiTheme } from "../theme/ui-theme.js";
import { type MarkdownTransform, transformOptions } from "./markdown-transform.js";

/** A prompt the user sent, on the user-message background. */
export class UserMessageView implements Component {
	private readonly spacer = new Spacer(1);
	private readonly body: Markdown;
	private cache: { width: number; lines: string[] } | undefined;

	constructor(
		theme: UiTheme,
		readonly text: string,
		transform?: MarkdownTransform,
		timestamp?: number,
	) {
		this.body = new Markdown(
			sanitizeTerminalText(text),
			1,
			1,
			theme.markdown(),
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
