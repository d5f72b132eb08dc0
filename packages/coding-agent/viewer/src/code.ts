import { highlightPieces } from "../../src/modes/interactive/theme/syntax-highlight.js";
import { h } from "./dom.js";

/** Code over this size is shown without highlighting. */
const MAX_HIGHLIGHT_CHARS = 100_000;

/** Highlighted code: one span per token, coloured by the theme's `syntax*` tokens (class `hl-<token>`). */
export function highlightedCode(code: string, lang: string | undefined): HTMLElement {
	const element = h("code");
	const pieces = code.length <= MAX_HIGHLIGHT_CHARS ? highlightPieces(code, lang) : undefined;
	if (!pieces) {
		element.textContent = code;
		return element;
	}
	pieces.forEach((line, index) => {
		if (index > 0) element.append("\n");
		for (const piece of line)
			element.append(piece.color ? h("span", { class: `hl-${piece.color}` }, piece.text) : piece.text);
	});
	return element;
}

/** A fenced code block with its language named above it. */
export function codeBlock(code: string, lang: string | undefined): HTMLElement {
	const language = lang?.trim().split(/\s+/)[0]?.slice(0, 40);
	return h(
		"div",
		{ class: "code-block" },
		language ? h("div", { class: "code-lang" }, language) : null,
		h("pre", {}, highlightedCode(code.replace(/\n$/, ""), language)),
	);
}
