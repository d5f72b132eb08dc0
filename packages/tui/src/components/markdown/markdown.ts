import type { Token } from "marked";
import { applyBackgroundToLine, truncateToWidth } from "../../text/truncate.js";
import type { Component } from "../../tui/component.js";
import { type BlockContext, renderBlock } from "./blocks.js";
import { type LexedMarkdown, lexMarkdown } from "./lexer.js";
import type { DefaultTextStyle, MarkdownOptions, MarkdownTheme } from "./theme.js";

const HTML_COMMENT = /^<!--[\s\S]*?-->\s*$/;

/** A streaming partial closing fence ("`" or "``" on the last line) is not content. */
function trimPartialFence(text: string): string {
	return text.replace(/\n {0,3}`{1,2}$/, "\n");
}

/**
 * Markdown rendered with a theme. Each top-level block's lines are cached by its source, so while
 * an answer streams only the last (growing) block is rendered again.
 */
export class Markdown implements Component {
	private frame: { text: string; width: number; lines: string[] } | undefined;
	private blocks = new Map<string, string[]>();
	private blockByToken = new WeakMap<Token, { width: number; nextType: string; lines: string[] }>();
	private highlighted = new Map<string, string[]>();
	private styleFn: ((text: string) => string) | undefined;
	private lexed: LexedMarkdown | undefined;

	constructor(
		private text: string,
		private readonly paddingX: number,
		private readonly paddingY: number,
		private readonly theme: MarkdownTheme,
		private readonly defaultTextStyle?: DefaultTextStyle,
		private readonly options: MarkdownOptions = {},
	) {}

	setText(text: string): void {
		if (text === this.text) return;
		this.text = text;
		this.frame = undefined;
	}

	getText(): string {
		return this.text;
	}

	invalidate(): void {
		this.frame = undefined;
		this.blocks.clear();
		this.blockByToken = new WeakMap();
		this.highlighted.clear();
		this.styleFn = undefined;
	}

	private textStyle(): (text: string) => string {
		if (this.styleFn) return this.styleFn;
		const s = this.defaultTextStyle ?? {};
		const theme = this.theme;
		this.styleFn = (t: string) => {
			let out = t;
			if (s.color) out = s.color(out);
			if (s.bold) out = theme.bold(out);
			if (s.italic) out = theme.italic(out);
			if (s.strikethrough) out = theme.strikethrough(out);
			if (s.underline) out = theme.underline(out);
			return out;
		};
		return this.styleFn;
	}

	private context(): BlockContext {
		return {
			theme: this.theme,
			options: this.options,
			textStyle: this.textStyle(),
			highlight: (code, lang) => {
				if (!this.theme.highlightCode) return undefined;
				const key = `${lang ?? ""}\0${code}`;
				let lines = this.highlighted.get(key);
				if (!lines) {
					lines = this.theme.highlightCode(code, lang);
					this.highlighted.set(key, lines);
				}
				return lines;
			},
		};
	}

	render(width: number): readonly string[] {
		if (this.frame && this.frame.text === this.text && this.frame.width === width) return this.frame.lines;
		const lines = this.layout(width);
		this.frame = { text: this.text, width, lines };
		return lines;
	}

	private layout(width: number): string[] {
		if (this.text.trim().length === 0) return [];
		const contentWidth = Math.max(1, width - 2 * this.paddingX);
		let source = this.options.transform ? this.options.transform(this.text, contentWidth) : this.text;
		source = trimPartialFence(source.replaceAll("\t", "   "));
		this.lexed = lexMarkdown(source, this.lexed);
		const tokens = this.lexed.tokens.filter((t) => !(t.type === "html" && HTML_COMMENT.test(t.raw)));
		// Reference-style definitions can change how earlier blocks render: no reuse then.
		const reuse = !this.lexed.hasReferenceLinks;
		const ctx = this.context();
		const used = new Map<string, string[]>();
		const body: string[] = [];
		tokens.forEach((token: Token, i) => {
			const nextType = tokens[i + 1]?.type ?? "";
			// Tokens kept by incremental lexing are the same objects: found without hashing their text.
			const byIdentity = reuse ? this.blockByToken.get(token) : undefined;
			let lines =
				byIdentity && byIdentity.width === contentWidth && byIdentity.nextType === nextType
					? byIdentity.lines
					: undefined;
			if (!lines) {
				const key = `${contentWidth}\0${nextType}\0${token.type}\0${token.raw}`;
				lines =
					(reuse ? this.blocks.get(key) : undefined) ??
					renderBlock(token, contentWidth, ctx, nextType || undefined);
				used.set(key, lines);
				this.blockByToken.set(token, { width: contentWidth, nextType, lines });
			}
			for (const line of lines) body.push(line);
		});
		// Keep source-keyed entries only for blocks rendered this frame plus those still in use.
		for (const [key, lines] of used) this.blocks.set(key, lines);
		if (this.blocks.size > 4 * tokens.length + 16) this.blocks = used;
		while (body.length > 0 && body[body.length - 1] === "") body.pop();
		const margin = " ".repeat(this.paddingX);
		const bg = this.defaultTextStyle?.bgColor;
		// Blocks with fixed parts (bullets, code indent, table borders) can outgrow a very narrow width.
		const finish = (line: string) => {
			const fitted = truncateToWidth(margin + line, width, "");
			return bg ? applyBackgroundToLine(fitted, width, bg) : fitted;
		};
		const blank = finish("");
		const vertical = Array.from({ length: this.paddingY }, () => blank);
		return [...vertical, ...body.map(finish), ...vertical];
	}
}
