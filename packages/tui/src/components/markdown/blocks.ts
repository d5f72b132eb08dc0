import type { Token, Tokens } from "marked";
import { padToWidth, truncateToWidth } from "../../text/truncate.js";
import { visibleWidth } from "../../text/width.js";
import { wrapTextWithAnsi } from "../../text/wrap.js";
import { renderInline } from "./inline.js";
import type { MathToken } from "./math.js";
import { renderLatex } from "./render-latex.js";
import type { MarkdownOptions, MarkdownTheme } from "./theme.js";

/** Everything a block renderer needs besides the token. */
export interface BlockContext {
	theme: MarkdownTheme;
	options: MarkdownOptions;
	/** Style for plain paragraph text. */
	textStyle: (text: string) => string;
	/** Highlighted code lines, or undefined without a highlighter. */
	highlight: (code: string, lang: string | undefined) => string[] | undefined;
	/**
	 * One code line wrapped to `width`, each row after `indent`; the component remembers lines it
	 * laid out before and returns the same strings for them.
	 */
	codeRows: (line: string, width: number, indent: string) => string[];
}

export function renderBlock(token: Token, width: number, ctx: BlockContext, nextType: string | undefined): string[] {
	const { theme } = ctx;
	switch (token.type) {
		case "space":
			return [""];
		case "heading": {
			const h = token as Tokens.Heading;
			const text = renderInline(h.tokens, theme, (t) => t, ctx.options);
			const styled =
				h.depth === 1
					? theme.heading(theme.bold(theme.underline(text)))
					: theme.heading(theme.bold(h.depth >= 3 ? `${"#".repeat(h.depth)} ${text}` : text));
			return wrapTextWithAnsi(styled, width);
		}
		case "paragraph":
			return wrapTextWithAnsi(
				renderInline((token as Tokens.Paragraph).tokens, theme, ctx.textStyle, ctx.options),
				width,
			);
		case "text": {
			const t = token as Tokens.Text;
			return wrapTextWithAnsi(
				t.tokens ? renderInline(t.tokens, theme, ctx.textStyle, ctx.options) : ctx.textStyle(t.text),
				width,
			);
		}
		case "code":
			return renderCode(token as Tokens.Code, width, ctx, nextType);
		case "hr":
			return [theme.hr("─".repeat(Math.max(1, Math.min(width, 80))))];
		case "blockquote": {
			const border = theme.quoteBorder("│ ");
			const inner = renderBlocks((token as Tokens.Blockquote).tokens, Math.max(1, width - 2), ctx);
			return inner.map((line) => border + theme.quote(line));
		}
		case "list":
			return renderList(token as Tokens.List, width, ctx);
		case "table":
			return renderTable(token as Tokens.Table, width, ctx);
		case "html":
			return wrapTextWithAnsi(ctx.textStyle((token as Tokens.HTML).text.trimEnd()), width);
		case "def":
			return [];
		case "blockMath": {
			const math = token as MathToken;
			if (ctx.options.renderLatex === false) return wrapTextWithAnsi(math.raw.trimEnd(), width);
			const source = math.text.trim();
			const lines = (renderLatex(source, { display: true }) ?? math.raw.trim()).split("\n");
			return lines.flatMap((l) => wrapTextWithAnsi(ctx.textStyle(`  ${l.trimEnd()}`), width));
		}
		default:
			return "raw" in token ? wrapTextWithAnsi(String(token.raw).trimEnd(), width) : [];
	}
}

export function renderBlocks(tokens: readonly Token[], width: number, ctx: BlockContext): string[] {
	const out: string[] = [];
	tokens.forEach((token, i) => {
		out.push(...renderBlock(token, width, ctx, tokens[i + 1]?.type));
	});
	while (out.length > 0 && out[out.length - 1] === "") out.pop();
	return out;
}

function renderCode(code: Tokens.Code, width: number, ctx: BlockContext, nextType: string | undefined): string[] {
	const { theme } = ctx;
	const indent = theme.codeBlockIndent ?? "  ";
	const lang = code.lang?.trim() || undefined;
	const body = ctx.highlight(code.text, lang) ?? code.text.split("\n").map((l) => theme.codeBlock(l));
	const inner = Math.max(1, width - visibleWidth(indent));
	const lines = [theme.codeBlockBorder(truncateToWidth(`\`\`\`${lang ?? ""}`, width, ""))];
	for (const line of body) for (const row of ctx.codeRows(line, inner, indent)) lines.push(row);
	lines.push(theme.codeBlockBorder("```"));
	if (nextType !== "space" && nextType !== undefined) lines.push("");
	return lines;
}

function renderList(list: Tokens.List, width: number, ctx: BlockContext): string[] {
	const out: string[] = [];
	const start = typeof list.start === "number" ? list.start : 1;
	list.items.forEach((item, i) => {
		const original = ctx.options.preserveOrderedListMarkers ? /^\s*(\d+[.)])\s/.exec(item.raw)?.[1] : undefined;
		const marker = list.ordered ? `${original ?? `${start + i}.`} ` : "- ";
		const task = item.task ? (item.checked ? "[x] " : "[ ] ") : "";
		const markerWidth = visibleWidth(marker);
		const inner = Math.max(1, width - markerWidth);
		const lines = renderBlocks(item.tokens, inner, ctx);
		if (lines.length === 0) lines.push("");
		lines.forEach((line, k) => {
			if (k === 0) out.push(ctx.theme.listBullet(marker) + task + line);
			else out.push(" ".repeat(markerWidth) + line);
		});
	});
	return out;
}

function renderTable(table: Tokens.Table, width: number, ctx: BlockContext): string[] {
	const { theme } = ctx;
	const header = table.header.map((c) => theme.bold(renderInline(c.tokens, theme, ctx.textStyle, ctx.options)));
	const rows = table.rows.map((r) => r.map((c) => renderInline(c.tokens, theme, ctx.textStyle, ctx.options)));
	const columns = header.length;
	const natural = header.map((h, i) => Math.max(visibleWidth(h), ...rows.map((r) => visibleWidth(r[i] ?? "")), 1));
	// Borders: "│ " before each column, " │" after the last, " │ " between.
	const available = Math.max(columns, width - (3 * columns + 1));
	const widths = [...natural];
	let total = widths.reduce((a, b) => a + b, 0);
	while (total > available) {
		const widest = widths.indexOf(Math.max(...widths));
		if (widths[widest]! <= 1) break;
		widths[widest]!--;
		total--;
	}
	const renderRow = (cells: string[]) => {
		const wrapped = cells.map((c, i) => wrapTextWithAnsi(c, widths[i]!));
		const height = Math.max(...wrapped.map((w) => w.length));
		const lines: string[] = [];
		for (let k = 0; k < height; k++) {
			lines.push(`│ ${wrapped.map((w, i) => padToWidth(w[k] ?? "", widths[i]!)).join(" │ ")} │`);
		}
		return lines;
	};
	const rule = (l: string, m: string, r: string) => l + widths.map((w) => "─".repeat(w + 2)).join(m) + r;
	const out = [rule("┌", "┬", "┐"), ...renderRow(header), rule("├", "┼", "┤")];
	for (const r of rows) out.push(...renderRow(r));
	out.push(rule("└", "┴", "┘"));
	return out.map((l) => truncateToWidth(l, width, ""));
}
