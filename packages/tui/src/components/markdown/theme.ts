/** Styles of `Markdown`: one function per element (headings, links, code, quotes, lists, …) that wraps its text. */
export interface MarkdownTheme {
	heading: (text: string) => string;
	link: (text: string) => string;
	linkUrl: (text: string) => string;
	code: (text: string) => string;
	codeBlock: (text: string) => string;
	codeBlockBorder: (text: string) => string;
	quote: (text: string) => string;
	quoteBorder: (text: string) => string;
	hr: (text: string) => string;
	listBullet: (text: string) => string;
	bold: (text: string) => string;
	italic: (text: string) => string;
	strikethrough: (text: string) => string;
	underline: (text: string) => string;
	/** One styled string per line of code. */
	highlightCode?: (code: string, lang?: string) => string[];
	/** Default two spaces. */
	codeBlockIndent?: string;
}

/** The style applied to all text of a `Markdown` component before its own markup styles. */
export interface DefaultTextStyle {
	color?: (text: string) => string;
	bgColor?: (text: string) => string;
	bold?: boolean;
	italic?: boolean;
	strikethrough?: boolean;
	underline?: boolean;
}

/** Options of `Markdown`: list marker and escape handling, a transform of the source and math rendering. */
export interface MarkdownOptions {
	preserveOrderedListMarkers?: boolean;
	preserveBackslashEscapes?: boolean;
	transform?: (markdown: string, availableWidth: number) => string;
	/** Default true: `$…$` and `$$…$$` math is shown as Unicode text. */
	renderLatex?: boolean;
}
