import { type Component, sanitizeTerminalText, truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@tau/tui";
import type { ToolRenderContext, ToolRenderers } from "../../../core/extensions/index.js";
import { keyText } from "../keybindings/key-hints.js";
import type { UiTheme } from "../theme/ui-theme.js";
import { codemodeLines } from "./codemode-view.js";
import { describeToolCall } from "./tool-formatting.js";
import { editPreview } from "./tool-summary.js";

export interface ToolResultView {
	content: readonly { type: string; text?: string }[];
	details?: unknown;
	isError: boolean;
	durationMs?: number;
}

const COLLAPSED_LINES = 10;

/** Names the key that expands collapsed output (`app.tools.expand`, Ctrl+O unless rebound). */
export function expandHint(): string {
	const key = keyText("app.tools.expand");
	return key ? `${key} to expand` : "expand to show";
}

/** Tool output is untrusted (file contents, command output, server replies): sanitised as it enters. */
function resultText(result: ToolResultView): string {
	const text = result.content
		.map((part) => (part.type === "text" ? (part.text ?? "") : part.type === "image" ? "[image]" : ""))
		.join("\n");
	return sanitizeTerminalText(text).replace(/\s+$/, "");
}

/** The display diff the edit tool reports in its details, when present. */
function editDiffOf(result: ToolResultView | undefined): string | undefined {
	const details = result?.details as { diff?: unknown } | undefined;
	return typeof details?.diff === "string" ? sanitizeTerminalText(details.diff) : undefined;
}

/** Extension-provided renderers for one tool and what their render context needs from the mode. */
export interface ToolRendering {
	renderers: ToolRenderers;
	cwd: string;
	showImages: boolean;
	outputPad: number;
	keyText(id: string): string;
	keyHint(id: string, description: string): string;
	requestRender(): void;
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
	/** Renderer state that survives re-renders (`context.state`), and the last components returned. */
	private readonly rendererState: Record<string, unknown> = {};
	private lastCall: Component | undefined;
	private lastResult: Component | undefined;

	constructor(
		private readonly theme: UiTheme,
		readonly toolName: string,
		readonly toolCallId: string,
		args: unknown,
		private expanded: boolean,
		private readonly rendering?: ToolRendering,
	) {
		this.args = (args ?? {}) as Record<string, unknown>;
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
		const preview = this.argsComplete ? editPreview(this.args) : undefined;
		const diff =
			this.toolName === "edit"
				? (editDiffOf(this.result) ?? (preview === undefined ? undefined : sanitizeTerminalText(preview)))
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
		const output = this.outputLines();
		if (this.toolName !== "codemode") return output;
		const script = codemodeLines(this.theme, this.args, this.result?.details, this.expanded);
		return output.length > 0 && script.length > 0 ? [...script, "", ...output] : [...script, ...output];
	}

	private outputLines(): string[] {
		if (!this.result) return [];
		const text = resultText(this.result);
		if (text === "") return [];
		const lines = text.split("\n").map((line) => this.theme.fg(this.result?.isError ? "error" : "toolOutput", line));
		if (this.expanded || lines.length <= COLLAPSED_LINES) return lines;
		const hidden = lines.length - COLLAPSED_LINES;
		return [...lines.slice(-COLLAPSED_LINES), this.theme.fg("muted", `… (${hidden} more lines, ${expandHint()})`)];
	}

	private renderContext(rendering: ToolRendering, lastComponent: Component | undefined): ToolRenderContext {
		return {
			args: this.args,
			toolCallId: this.toolCallId,
			invalidate: () => {
				this.cache = undefined;
				rendering.requestRender();
			},
			lastComponent,
			state: this.rendererState,
			cwd: rendering.cwd,
			executionStarted: this.started,
			argsComplete: this.argsComplete,
			isPartial: this.partial,
			expanded: this.expanded,
			showImages: rendering.showImages,
			isError: this.result?.isError ?? false,
			durationMs: this.result?.durationMs,
			outputPad: rendering.outputPad,
			keyText: rendering.keyText,
			keyHint: rendering.keyHint,
		};
	}

	/** Lines from the extension renderers; undefined for a slot without one (or one that threw). */
	private extensionLines(width: number): { call?: readonly string[]; result?: readonly string[] } {
		const rendering = this.rendering;
		if (!rendering) return {};
		const theme = this.theme.source;
		const out: { call?: readonly string[]; result?: readonly string[] } = {};
		try {
			if (rendering.renderers.renderCall) {
				this.lastCall = rendering.renderers.renderCall(
					this.args as never,
					theme,
					this.renderContext(rendering, this.lastCall),
				);
				out.call = this.lastCall.render(width);
			}
			if (rendering.renderers.renderResult && this.result) {
				this.lastResult = rendering.renderers.renderResult(
					this.result as never,
					{ expanded: this.expanded, isPartial: this.partial },
					theme,
					this.renderContext(rendering, this.lastResult),
				);
				out.result = this.lastResult.render(width);
			}
		} catch {
			// A failing renderer falls back to the built-in rendering of its slot.
		}
		return out;
	}

	render(width: number): readonly string[] {
		if (this.cache?.width === width) return this.cache.lines;
		const inner = Math.max(1, width - 2);
		const custom = this.extensionLines(this.rendering?.renderers.renderShell === "self" ? width : inner);
		if (this.rendering?.renderers.renderShell === "self" && custom.call) {
			const lines = ["", ...custom.call, ...(custom.result ?? this.bodyLines())].map((line) =>
				truncateToWidth(line, width),
			);
			this.cache = { width, lines };
			return lines;
		}
		const title = describeToolCall(this.theme, this.toolName, this.args);
		const status =
			this.result?.durationMs !== undefined && !this.partial
				? this.theme.fg("muted", ` (${(this.result.durationMs / 1000).toFixed(1)}s)`)
				: this.started || this.result
					? ""
					: this.theme.fg("muted", " …");
		const head = custom.call ? [...custom.call] : [title + status];
		const body = custom.result ? [...custom.result] : this.bodyLines();
		const content = [...head, ...body].flatMap((line) => (line === "" ? [""] : wrapTextWithAnsi(line, inner)));
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
