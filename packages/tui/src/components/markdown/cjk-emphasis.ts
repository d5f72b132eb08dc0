import type { TokenizerAndRendererExtension, Tokens } from "marked";

/** CJK characters and CJK/fullwidth punctuation. */
const CJK = /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]/;

/**
 * CommonMark's flanking rules reject `**加粗。**后面` (a closing delimiter after punctuation and
 * before a letter). These extensions accept emphasis whose delimiters touch CJK text; everything
 * else is left to marked's own rules.
 */
function cjkEmphasis(name: string, type: "strong" | "em", pattern: RegExp): TokenizerAndRendererExtension {
	return {
		name,
		level: "inline",
		start(src: string) {
			const i = src.search(/[*_]/);
			return i < 0 ? undefined : i;
		},
		tokenizer(src: string) {
			const m = pattern.exec(src);
			if (!m) return undefined;
			const inner = m[2]!;
			const after = src[m[0].length] ?? "";
			if (!CJK.test(inner[0]!) && !CJK.test(inner[inner.length - 1]!) && !CJK.test(after)) return undefined;
			const token: Tokens.Strong | Tokens.Em = {
				type,
				raw: m[0],
				text: inner,
				tokens: this.lexer.inlineTokens(inner),
			};
			return token;
		},
	};
}

export const CJK_EMPHASIS_EXTENSIONS: TokenizerAndRendererExtension[] = [
	cjkEmphasis("cjkStrong", "strong", /^(\*\*|__)(?=\S)([\s\S]*?\S)\1(?![*_])/),
	cjkEmphasis("cjkEm", "em", /^([*_])(?=[^\s*_])([\s\S]*?[^\s*_])\1(?![*_])/),
];
