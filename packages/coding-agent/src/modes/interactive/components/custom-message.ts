import { type Component, Markdown, Spacer, sanitizeTerminalText } from "@tau/tui";
import type { UiTheme } from "../theme/ui-theme.js";
import { type MarkdownTransform, transformOptions } from "./markdown-transform.js";

/** A displayable extension message (`custom_message`) without a registered renderer. */
export class CustomMessageView implements Component {
	private readonly body: Markdown;
	private cache: { width: number; lines: string[] } | undefined;

	constructor(theme: UiTheme, customType: string, text: string, transform?: MarkdownTransform, timestamp?: number) {
		const label = `${theme.bold(theme.fg("customMessageLabel", `[${sanitizeTerminalText(customType)}]`))}\n\n`;
		this.body = new Markdown(
			`${label}${sanitizeTerminalText(text)}`,
			1,
			1,
			theme.markdown(),
			{
				bgColor: (t) => theme.bg("customMessageBg", t),
				color: (t) => theme.fg("customMessageText", t),
			},
			transformOptions(
				transform,
				{ messageType: "custom", isStreaming: false, ...(timestamp !== undefined ? { timestamp } : {}) },
				label,
			),
		);
	}

	invalidate(): void {
		this.cache = undefined;
		this.body.invalidate();
	}

	render(width: number): readonly string[] {
		if (this.cache?.width === width) return this.cache.lines;
		const lines = [...new Spacer(1).render(width), ...this.body.render(width)];
		this.cache = { width, lines };
		return lines;
	}
}
