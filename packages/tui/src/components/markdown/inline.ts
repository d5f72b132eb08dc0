import type { Token, Tokens } from "marked";
import { getCapabilities } from "../../capabilities/capabilities.js";
import { hyperlink } from "../../text/ansi.js";
import type { MathToken } from "./math.js";
import { renderLatex } from "./render-latex.js";
import type { MarkdownOptions, MarkdownTheme } from "./theme.js";

function decodeEntities(text: string): string {
	return text
		.replace(/&lt;/g, "<")
		.replace(/&gt;/g, ">")
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&amp;/g, "&");
}

/** Renders inline tokens to one styled string (newlines for hard breaks). */
export function renderInline(
	tokens: readonly Token[] | undefined,
	theme: MarkdownTheme,
	style: (t: string) => string,
	options: MarkdownOptions = {},
): string {
	if (!tokens) return "";
	let out = "";
	for (const token of tokens) out += renderInlineToken(token, theme, style, options);
	return out;
}

function renderInlineToken(
	token: Token,
	theme: MarkdownTheme,
	style: (t: string) => string,
	options: MarkdownOptions,
): string {
	switch (token.type) {
		case "text": {
			const t = token as Tokens.Text;
			return t.tokens ? renderInline(t.tokens, theme, style, options) : style(decodeEntities(t.text));
		}
		case "escape": {
			const text = decodeEntities((token as Tokens.Escape).text);
			return style(options.preserveBackslashEscapes ? `\\${text}` : text);
		}
		case "strong":
			return theme.bold(renderInline((token as Tokens.Strong).tokens, theme, style, options));
		case "em":
			return theme.italic(renderInline((token as Tokens.Em).tokens, theme, style, options));
		case "del":
			return theme.strikethrough(renderInline((token as Tokens.Del).tokens, theme, style, options));
		case "codespan":
			return theme.code(decodeEntities((token as Tokens.Codespan).text));
		case "br":
			return "\n";
		case "link": {
			const link = token as Tokens.Link;
			const text = renderInline(link.tokens, theme, (t) => t, options);
			if (getCapabilities().hyperlinks) return hyperlink(theme.link(text), link.href);
			const plainText = link.text;
			const mail = link.href.startsWith("mailto:") ? link.href.slice(7) : undefined;
			const showUrl = plainText !== link.href && plainText !== mail;
			return theme.link(text) + (showUrl ? theme.linkUrl(` (${link.href})`) : "");
		}
		case "image": {
			const image = token as Tokens.Image;
			return theme.link(`[image: ${image.text || image.href}]`);
		}
		case "html":
			return style((token as Tokens.HTML).text);
		case "inlineMath":
			// Math the renderer does not understand is shown as written, as pi-tui does.
			if (options.renderLatex === false) return style(token.raw);
			return style(renderLatex((token as MathToken).text) ?? token.raw);
		default:
			return "raw" in token ? style(String(token.raw)) : "";
	}
}
