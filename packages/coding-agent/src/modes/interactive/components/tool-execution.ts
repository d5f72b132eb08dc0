import { type Component, truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@tau/tui";
import type { UiTheme } from "../theme/ui-theme.js";
import { describeToolCall, editPreview } from "./tool-formatting.js";

export interface ToolResultView {
	content: readonly { type: string; text?: string }[];
	details?: unknown;
	isError: boolean;
	durationMs?: number;
}

const COLLAPSED_LINES = 10;

function resultText(result: ToolResultView): string {
	return result.content
		.map((part) => (part.type === "text" ? (part.text ?? "") : part.type === "image" ? "[image]" : ""))
		.join("\n")
		.replace(/\s+$/, "");
}

/** The display diff the edit tool reports in its details, when present. */
function editDiffOf(result: ToolResultView | undefined): string | undefined {
	const details = result?.details as { diff?: unknown } | undefined;
	return typeof details?.diff === "string" ? details.diff : undefined;
}

/**
 * One tool call from streaming arguments to final result: created as soon as the call appears in
 * the assistant snapshot, keyed by its id, then updated in place.
 */
export class ToolExecutionView implements Component {
	private args: Record<string, unknown>;
	private argsComplete = false;
	private started = false;
	private result: ToolResultView | undefined;
	private partial = false;
	private cache: { width: number; lines: string[] } | undefined;

	constructor(
		private readonly theme: UiTheme,
		readonly toolName: string,
		readonly toolCallId: string,
		args: unknown,
		private expanded: boolean,
	) {
		this.args = (args ?? {}) as Record<string, unknown>;
	}

	get isFinished(): boolean {
		return this.result !== undefined && !this.partial;
	}

	updateArgs(args: unknown): void {
		this.args = (args ?? {}) as Record<string, unknown>;
		this.cache = undefined;
	}

	setArgsComplete(): void {
		this.argsComplete = true;
		this.cache = undefined;
	}

	markExecutionStarted(): void {
		this.started = true;
		this.cache = undefined;
	}

	updateResult(result: ToolResultView, partial = false): void {
		this.result = result;
		this.partial = partial;
		this.cache = undefined;
	}

	setExpanded(expanded: boolean): void {
		if (this.expanded === expanded) return;
		this.expanded = expanded;
		this.cache = undefined;
	}

	invalidate(): void {
		this.cache = undefined;
	}

	private background(): string {
		if (!this.result || this.partial) return "toolPendingBg";
		return this.result.isError ? "toolErrorBg" : "toolSuccessBg";
	}

	private bodyLines(): string[] {
		const diff =
			this.toolName === "edit"
				? (editDiffOf(this.result) ?? (this.argsComplete ? editPreview(this.args) : undefined))
				: undefined;
		if (diff !== undefined && !this.result?.isError) {
			return diff.split("\n").map((line) => {
				const token = line.startsWith("+")
					? "toolDiffAdded"
					: line.startsWith("-")
						? "toolDiffRemoved"
						: "toolDiffContext";
				return this.theme.fg(token, line);
			});
		}
		if (!this.result) return [];
		const text = resultText(this.result);
		if (text === "") return [];
		const lines = text.split("\n").map((line) => this.theme.fg(this.result?.isError ? "error" : "toolOutput", line));
		if (this.expanded || lines.length <= COLLAPSED_LINES) return lines;
		const hidden = lines.length - COLLAPSED_LINES;
		return [...lines.slice(-COLLAPSED_LINES), this.theme.fg("muted", `… (${hidden} more lines, expand to show)`)];
	}

	render(width: number): readonly string[] {
		if (this.cache?.width === width) return this.cache.lines;
		const inner = Math.max(1, width - 2);
		const title = describeToolCall(this.theme, this.toolName, this.args);
		const status =
			this.result?.durationMs !== undefined && !this.partial
				? this.theme.fg("muted", ` (${(this.result.durationMs / 1000).toFixed(1)}s)`)
				: this.started || this.result
					? ""
					: this.theme.fg("muted", " …");
		const content = [title + status, ...this.bodyLines()].flatMap((line) =>
			line === "" ? [""] : wrapTextWithAnsi(line, inner),
		);
		const bg = this.background();
		const pad = (line: string) => {
			const text = truncateToWidth(` ${line}`, width);
			return this.theme.bg(bg, text + " ".repeat(Math.max(0, width - visibleWidth(text))));
		};
		const lines = ["", ...[" ", ...content, " "].map((line) => pad(line === " " ? "" : line))];
		this.cache = { width, lines };
		return lines;
	}
}
