import type { TokenizerAndRendererExtension } from "marked";

/** `$…$` (inline) or `$$…$$` (block) math. */
export interface MathToken {
	type: "inlineMath" | "blockMath";
	raw: string;
	text: string;
}

const INLINE = /^\$(?![\s$])((?:\\.|[^\\$\n])+?)(?<!\s)\$(?!\d)/;
/** Like a code fence, an unclosed `$$` runs to the end (keeps a streaming block a single token). */
const BLOCK = /^ {0,3}\$\$([\s\S]*?)(?:\$\$[ \t]*(?:\n|$)|$)/;

export const MATH_EXTENSIONS: TokenizerAndRendererExtension[] = [
	{
		name: "blockMath",
		level: "block",
		start(src: string) {
			const i = src.search(/^ {0,3}\$\$/m);
			return i < 0 ? undefined : i;
		},
		tokenizer(src: string) {
			const m = BLOCK.exec(src);
			return m ? { type: "blockMath", raw: m[0], text: m[1]! } : undefined;
		},
	},
	{
		name: "inlineMath",
		level: "inline",
		start(src: string) {
			const i = src.indexOf("$");
			return i < 0 ? undefined : i;
		},
		tokenizer(src: string) {
			const m = INLINE.exec(src);
			return m ? { type: "inlineMath", raw: m[0], text: m[1]! } : undefined;
		},
	},
];
