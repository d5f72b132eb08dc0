import type { Token } from "marked";
import { applyBackgroundToLine, truncateToWidth } from "../../text/truncate.js";
import { wrapTextWithAnsi } from "../../text/wrap.js";
import type { Component } from "../../tui/component.js";
import { type BlockContext, renderBlock } from "./blocks.js";
import { type LexedMarkdown, lexMarkdown } from "./lexer.js";
import type { DefaultTextStyle, MarkdownOptions, MarkdownTheme } from "./theme.js";

const HTML_COMMENT = /^<!--[\s\S]*?-->\s*$/;

/** A streaming partial closing fence ("`" or "``" on the last line) is not content. */
function trimPartialFence(text: string): string {
	return text.replace(/\n {0,3}`{1,2}$/, "\n");
}

/** Laid-out code rows by width and indent, then by styled line. */
type CodeWraps = Map<string, Map<string, string[]>>;

/** Finished lines (margin, background) by laid-out line, for one width. */
interface FinishedLines {
	width: number;
	lines: Map<string, string>;
}

/** Finishes a laid-out line, recording the result in `into`. */
type Finisher = (line: string, into: Map<string, string>) => string;

/** A rendered top-level block: its lines as laid out, and as finished (margin, background). */
interface RenderedBlock {
	width: number;
	nextType: string;
	/** Index of the last non-empty laid-out line, -1 when all are empty (trailing blanks are dropped). */
	lastText: number;
	lines: string[];
}

/**
 * Markdown rendered with a theme. Each top-level block's finished lines are cached by token (kept
 * by incremental lexing) and by source, so while an answer streams only the last (growing) block
 * is rendered again, and a growing code block re-wraps only its new lines.
 */
export class Markdown implements Component {
	private frame: { text: string; width: number; lines: string[] } | undefined;
	private blocks = new Map<string, RenderedBlock>();
	private blockByToken = new WeakMap<Token, RenderedBlock>();
	private lastHighlight: { code: string; lang: string | undefined; lines: string[] } | undefined;
	/** Code rows of the last layout, by width and styled line. */
	private codeWraps: CodeWraps | undefined;
	/**
	 * Lines finished by the last block the last layout rendered: a growing block (the streaming one)
	 * is laid out again on every update, and most of its lines are the same as before.
	 */
	private finished: FinishedLines | undefined;
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
		this.lastHighlight = undefined;
		this.codeWraps = undefined;
		this.finished = undefined;
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

	private context(codeWraps: CodeWraps): BlockContext {
		const previousWraps = this.codeWraps;
		return {
			theme: this.theme,
			options: this.options,
			textStyle: this.textStyle(),
			highlight: (code, lang) => {
				if (!this.theme.highlightCode) return undefined;
				const last = this.lastHighlight;
				if (last && last.code === code && last.lang === lang) return last.lines;
				const lines = this.theme.highlightCode(code, lang);
				this.lastHighlight = { code, lang, lines };
				return lines;
			},
			codeRows: (line, width, indent) => {
				const key = `${width}\0${indent}`;
				let atWidth = codeWraps.get(key);
				if (!atWidth) {
					atWidth = new Map();
					codeWraps.set(key, atWidth);
				}
				const rows =
					atWidth.get(line) ??
					previousWraps?.get(key)?.get(line) ??
					wrapTextWithAnsi(line, width).map((wrapped) => indent + wrapped);
				atWidth.set(line, rows);
				return rows;
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
		// Only the lines wrapped in this layout are kept: the streaming code block reuses its old lines.
		const codeWraps: CodeWraps = new Map();
		const ctx = this.context(codeWraps);
		const finish = this.finisher(width);
		/** The finished lines of the last block rendered in this layout. */
		let fresh: Map<string, string> | undefined;
		const used = new Map<string, RenderedBlock>();
		const body: string[] = [];
		let bodyEnd = 0;
		tokens.forEach((token: Token, i) => {
			const nextType = tokens[i + 1]?.type ?? "";
			// Tokens kept by incremental lexing are the same objects: found without hashing their text.
			const byIdentity = reuse ? this.blockByToken.get(token) : undefined;
			let block =
				byIdentity && byIdentity.width === width && byIdentity.nextType === nextType ? byIdentity : undefined;
			if (!block) {
				const key = `${width}\0${nextType}\0${token.type}\0${token.raw}`;
				block = reuse ? this.blocks.get(key) : undefined;
				if (!block) {
					fresh = new Map();
					block = this.renderBlock(token, width, ctx, nextType, finish, fresh);
				}
				used.set(key, block);
				this.blockByToken.set(token, block);
			}
			if (block.lastText >= 0) bodyEnd = body.length + block.lastText + 1;
			for (const line of block.lines) body.push(line);
		});
		// Keep source-keyed entries only for blocks rendered this frame plus those still in use.
		for (const [key, block] of used) this.blocks.set(key, block);
		if (this.blocks.size > 4 * tokens.length + 16) this.blocks = used;
		this.codeWraps = codeWraps;
		if (fresh) this.finished = { width, lines: fresh };
		body.length = bodyEnd;
		const blank = finish("", new Map());
		const vertical = Array.from({ length: this.paddingY }, () => blank);
		return [...vertical, ...body, ...vertical];
	}

	private renderBlock(
		token: Token,
		width: number,
		ctx: BlockContext,
		nextType: string,
		finish: Finisher,
		finished: Map<string, string>,
	): RenderedBlock {
		const laidOut = renderBlock(token, Math.max(1, width - 2 * this.paddingX), ctx, nextType || undefined);
		let lastText = laidOut.length - 1;
		while (lastText >= 0 && laidOut[lastText] === "") lastText--;
		return { width, nextType, lastText, lines: laidOut.map((line) => finish(line, finished)) };
	}

	/**
	 * Adds the margin and the background to a laid-out line, reusing the result of the last layout's
	 * last rendered block (the growing one while an answer streams) for the same line.
	 */
	private finisher(width: number): Finisher {
		const margin = " ".repeat(this.paddingX);
		const bg = this.defaultTextStyle?.bgColor;
		const before = this.finished?.width === width ? this.finished.lines : undefined;
		return (line, into) => {
			let done = into.get(line) ?? before?.get(line);
			if (done === undefined) {
				// Blocks with fixed parts (bullets, code indent, table borders) can outgrow a very narrow width.
				const fitted = truncateToWidth(margin + line, width, "");
				done = bg ? applyBackgroundToLine(fitted, width, bg) : fitted;
			}
			into.set(line, done);
			return done;
		};
	}
}
