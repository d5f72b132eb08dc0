import { type Component, Markdown, Spacer, sanitizeTerminalText } from "@tau/tui";
import type { UiTheme } from "../theme/ui-theme.js";
import { type MarkdownTransform, transformOptions } from "./markdown-transform.js";

/** A prompt the user sent, on the user-message background. */
export class UserMessageView implements Component {
	private readonly spacer = new Spacer(1);
	/** Built when first drawn: a long history draws only its end at first. */
	private body: Markdown | undefined;
	private cache: { width: number; lines: string[] } | undefined;

	constructor(
		private readonly theme: UiTheme,
		readonly text: string,
		private readonly transform?: MarkdownTransform,
		private readonly timestamp?: number,
	) {}

	invalidate(): void {
		this.cache = undefined;
		this.body?.invalidate();
	}

	private markdown(): Markdown {
		const theme = this.theme;
		this.body ??= new Markdown(
			sanitizeTerminalText(this.text),
			1,
			1,
			theme.markdown(),
			{
				bgColor: (t) => theme.bg("userMessageBg", t),
				color: (t) => theme.fg("userMessageText", t),
			},
			transformOptions(this.transform, {
				messageType: "user",
				isStreaming: false,
				...(this.timestamp !== undefined ? { timestamp: this.timestamp } : {}),
			}),
		);
		return this.body;
	}

	render(width: number): readonly string[] {
		if (this.cache?.width === width) return this.cache.lines;
		const lines = [...this.spacer.render(width), ...this.markdown().render(width)];
		this.cache = { width, lines };
		return lines;
	}
}
