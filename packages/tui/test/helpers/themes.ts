import type { MarkdownTheme, SelectListTheme } from "@tau/tui";

/** A style function that leaves text unstyled, so tests compare plain text. */
export const plain = (text: string): string => text;

/** A `SelectList` theme without any styling. */
export const plainSelectListTheme: SelectListTheme = {
	selectedPrefix: plain,
	selectedText: plain,
	description: plain,
	scrollInfo: plain,
	noMatch: plain,
};

/** A `Markdown` theme without any styling. */
export const plainMarkdownTheme: MarkdownTheme = {
	heading: plain,
	link: plain,
	linkUrl: plain,
	code: plain,
	codeBlock: plain,
	codeBlockBorder: plain,
	quote: plain,
	quoteBorder: plain,
	hr: plain,
	listBullet: plain,
	bold: plain,
	italic: plain,
	strikethrough: plain,
	underline: plain,
};
