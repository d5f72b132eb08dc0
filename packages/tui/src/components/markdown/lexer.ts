import { Marked, type Token } from "marked";
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
