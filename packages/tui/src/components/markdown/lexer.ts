import { Marked, type Token, type Tokens } from "marked";
import { CJK_EMPHASIS_EXTENSIONS } from "./cjk-emphasis.js";
import { MATH_EXTENSIONS } from "./math.js";

const parser = new Marked({ gfm: true });
parser.use({ extensions: [...CJK_EMPHASIS_EXTENSIONS, ...MATH_EXTENSIONS] });

export interface LexedMarkdown {
	source: string;
	tokens: Token[];
	/** Whether the document defines reference-style links (block reuse is unsafe then). */
	hasReferenceLinks: boolean;
}

/** Non-space tokens at the end that appended text may still change (a paragraph, a list item …). */
const UNSTABLE_TAIL = 2;

function lexAll(source: string): LexedMarkdown {
	const list = parser.lexer(source);
	return { source, tokens: [...list], hasReferenceLinks: Object.keys(list.links ?? {}).length > 0 };
}

/**
 * Lexes Markdown, incrementally when `source` extends `previous` (streaming): the stable leading
 * blocks are kept and only the tail from the last few blocks on is lexed again, so each streamed
 * update costs the size of the tail rather than of the whole answer.
 */
export function lexMarkdown(source: string, previous: LexedMarkdown | undefined): LexedMarkdown {
	if (previous?.source === source) return previous;
	if (!previous || previous.hasReferenceLinks || !source.startsWith(previous.source)) return lexAll(source);
	const grown = growLastParagraph(previous, source);
	if (grown) return grown;
	const tokens = previous.tokens;
	let cut = tokens.length;
	let unstable = 0;
	while (cut > 0 && unstable < UNSTABLE_TAIL) {
		cut--;
		if (tokens[cut]!.type !== "space") unstable++;
	}
	let offset = 0;
	for (let i = 0; i < cut; i++) offset += tokens[i]!.raw.length;
	// Only safe when the kept tokens reproduce the source prefix exactly.
	const kept = tokens.slice(0, cut);
	if (kept.map((t) => t.raw).join("") !== source.slice(0, offset)) return lexAll(source);
	const tail = parser.lexer(source.slice(offset));
	if (Object.keys(tail.links ?? {}).length > 0) return lexAll(source);
	return { source, tokens: [...kept, ...tail], hasReferenceLinks: false };
}

/** Characters that may open, close or join an inline construct (emphasis, code, links, math …). */
const INLINE_SYNTAX = /[*_`~$[\]<>!\\&:@|]|www\./i;
/** Closed constructs whose meaning text after them cannot change. */
const CLOSED_INLINE = new Set(["strong", "em", "codespan", "del"]);

/**
 * A one-line paragraph at the end that only grew (a long streamed paragraph): the inline tokens
 * up to the last space of its last clean stretch are kept and only the rest is lexed again, so a
 * streamed paragraph costs its new words instead of its whole length per update. Undefined when
 * that is not certainly what a full lex gives: the line could turn into another block (it starts
 * with something other than a letter), or text before the cut holds inline syntax that text
 * after it could close.
 */
function growLastParagraph(previous: LexedMarkdown, source: string): LexedMarkdown | undefined {
	const last = previous.tokens[previous.tokens.length - 1];
	if (last?.type !== "paragraph") return undefined;
	const paragraph = last as Tokens.Paragraph;
	const text = paragraph.text + source.slice(previous.source.length);
	if (paragraph.raw !== paragraph.text || text.includes("\n") || !/^[A-Za-z]/.test(text)) return undefined;
	const kept: Token[] = [];
	let offset = 0;
	let cut: { tokens: Token[]; offset: number } | undefined;
	for (const token of paragraph.tokens) {
		if (token.type === "text" && !INLINE_SYNTAX.test(token.raw)) {
			const space = token.raw.lastIndexOf(" ");
			if (space > 0) {
				const head = token.raw.slice(0, space + 1);
				cut = {
					tokens: [...kept, { type: "text", raw: head, text: head } as Tokens.Text],
					offset: offset + head.length,
				};
			}
		} else if (!CLOSED_INLINE.has(token.type)) break;
		kept.push(token);
		offset += token.raw.length;
	}
	if (!cut) return undefined;
	const rest: Token[] = new parser.Lexer(parser.defaults).inlineTokens(text.slice(cut.offset));
	const grown: Tokens.Paragraph = { type: "paragraph", raw: text, text, tokens: [...cut.tokens, ...rest] };
	return { source, tokens: [...previous.tokens.slice(0, -1), grown], hasReferenceLinks: false };
}
