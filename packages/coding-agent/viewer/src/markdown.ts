import { Lexer, type Token, type Tokens } from "marked";
import { codeBlock } from "./code.js";
import { type Child, h, link } from "./dom.js";

/** Markdown over this size is shown as plain text: lexing it would stall the page. */
const MAX_MARKDOWN_CHARS = 200_000;

/**
 * Markdown as the terminal shows it (GFM, via the same lexer the TUI uses), built as DOM nodes.
 * Raw HTML in the source stays visible text, links open only for http(s)/mailto URLs, and images
 * are shown as links rather than loaded.
 */
export function renderMarkdown(source: string): HTMLElement {
	const root = h("div", { class: "markdown" });
	if (source.length > MAX_MARKDOWN_CHARS) {
		root.append(h("pre", { class: "plain" }, source));
		return root;
	}
	let tokens: Token[];
	try {
		tokens = Lexer.lex(source, { gfm: true });
	} catch {
		root.append(h("pre", { class: "plain" }, source));
		return root;
	}
	appendBlocks(root, tokens);
	return root;
}

function appendBlocks(parent: HTMLElement, tokens: readonly Token[]): void {
	for (const token of tokens) {
		const node = block(token);
		if (node) parent.append(node);
	}
}

function inline(tokens: readonly Token[] | undefined): Child[] {
	return (tokens ?? []).map(inlineNode);
}

function block(token: Token): Child {
	switch (token.type) {
		case "space":
		case "def":
			return null;
		case "heading": {
			const level = Math.min(6, Math.max(1, (token as Tokens.Heading).depth));
			return h(`h${level}` as "h1", {}, ...inline((token as Tokens.Heading).tokens));
		}
		case "paragraph":
			return h("p", {}, ...inline((token as Tokens.Paragraph).tokens));
		case "code":
			return codeBlock((token as Tokens.Code).text, (token as Tokens.Code).lang);
		case "blockquote": {
			const quote = h("blockquote");
			appendBlocks(quote, (token as Tokens.Blockquote).tokens);
			return quote;
		}
		case "list":
			return list(token as Tokens.List);
		case "table":
			return table(token as Tokens.Table);
		case "hr":
			return h("hr");
		case "html":
			return h("pre", { class: "raw-html" }, (token as Tokens.HTML).raw);
		case "text": {
			const textToken = token as Tokens.Text;
			return textToken.tokens ? h("span", {}, ...inline(textToken.tokens)) : textToken.text;
		}
		default:
			return inlineNode(token);
	}
}

function list(token: Tokens.List): HTMLElement {
	const element = token.ordered ? h("ol") : h("ul");
	if (token.ordered && typeof token.start === "number" && token.start !== 1) {
		element.setAttribute("start", String(Math.trunc(token.start)));
	}
	for (const item of token.items) {
		const li = h("li", item.task ? { class: "task" } : {});
		if (item.task && !item.tokens.some((child) => child.type === "checkbox"))
			li.append(checkbox(item.checked === true));
		appendBlocks(li, item.tokens);
		element.append(li);
	}
	return element;
}

function checkbox(checked: boolean): HTMLInputElement {
	return h("input", { type: "checkbox", disabled: true, checked });
}

function table(token: Tokens.Table): HTMLElement {
	const cell = (tag: "th" | "td", value: Tokens.TableCell) => {
		const element = h(tag, {}, ...inline(value.tokens));
		if (value.align) element.style.textAlign = value.align;
		return element;
	};
	return h(
		"div",
		{ class: "table-scroll" },
		h(
			"table",
			{},
			h("thead", {}, h("tr", {}, ...token.header.map((value) => cell("th", value)))),
			h("tbody", {}, ...token.rows.map((row) => h("tr", {}, ...row.map((value) => cell("td", value))))),
		),
	);
}

function inlineNode(token: Token): Child {
	switch (token.type) {
		case "text":
		case "escape": {
			const nested = (token as Tokens.Text).tokens;
			return nested ? h("span", {}, ...inline(nested)) : (token as Tokens.Text).text;
		}
		case "strong":
			return h("strong", {}, ...inline((token as Tokens.Strong).tokens));
		case "em":
			return h("em", {}, ...inline((token as Tokens.Em).tokens));
		case "del":
			return h("del", {}, ...inline((token as Tokens.Del).tokens));
		case "codespan":
			return h("code", {}, (token as Tokens.Codespan).text);
		case "br":
			return h("br");
		case "link": {
			const linkToken = token as Tokens.Link;
			return link(linkToken.href, ...inline(linkToken.tokens));
		}
		case "image": {
			const image = token as Tokens.Image;
			return link(image.href, `[image: ${image.text || image.href}]`);
		}
		case "checkbox":
			return checkbox((token as Tokens.Checkbox).checked);
		case "html":
			return (token as Tokens.HTML).raw;
		default:
			return "raw" in token && typeof token.raw === "string" ? token.raw : null;
	}
}
