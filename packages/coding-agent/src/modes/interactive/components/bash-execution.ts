import { type Component, sanitizeTerminalText, truncateToWidth, wrapTextWithAnsi } from "@tau/tui";
import type { BashResult } from "../../../core/extensions/index.js";
import type { UiTheme } from "../theme/ui-theme.js";
import { expandHint } from "./tool-execution.js";

const COLLAPSED_LINES = 20;

/** A user `!`/`!!` command: `$ <command>`, streaming output, then exit status and truncation notes. */
export class BashExecutionView implements Component {
	private output = "";
	private result: BashResult | undefined;
	private error: string | undefined;
	private expanded = false;
	private cache: { width: number; lines: string[] } | undefined;

	constructor(
		private readonly theme: UiTheme,
		readonly command: string,
		readonly excludeFromContext: boolean,
	) {}

	appendOutput(text: string): void {
		this.output += text;
		this.cache = undefined;
	}

	finish(result: BashResult): void {
		this.result = result;
		this.output = result.output;
		this.cache = undefined;
	}

	fail(message: string): void {
		this.error = message;
		this.cache = undefined;
	}

	setExpanded(expanded: boolean): void {
		this.expanded = expanded;
		this.cache = undefined;
	}

	invalidate(): void {
		this.cache = undefined;
	}

	private statusLine(): string | undefined {
		if (this.error) return this.theme.fg("error", sanitizeTerminalText(this.error));
		if (!this.result) return this.theme.fg("muted", "Running… (Escape to cancel)");
		if (this.result.cancelled) return this.theme.fg("warning", "(cancelled)");
		const parts: string[] = [];
		if (this.result.exitCode !== undefined && this.result.exitCode !== 0) {
			parts.push(this.theme.fg("error", `(exit ${this.result.exitCode})`));
		}
		if (this.result.truncated) {
			parts.push(
				this.theme.fg(
					"warning",
					`Output truncated${this.result.fullOutputPath ? `; full output: ${sanitizeTerminalText(this.result.fullOutputPath)}` : ""}`,
				),
			);
		}
		return parts.length > 0 ? parts.join(" ") : undefined;
	}

	render(width: number): readonly string[] {
		if (this.cache?.width === width) return this.cache.lines;
		const border = this.theme.fg("bashMode", "─".repeat(width));
		const command = sanitizeTerminalText(this.command).replace(/\n/g, " ");
		const title = this.theme.bold(this.theme.fg("bashMode", `$ ${command}`));
		const suffix = this.excludeFromContext ? this.theme.fg("muted", " (not sent to the model)") : "";
		// The user's own command output keeps its colours; every other control is filtered.
		const output = sanitizeTerminalText(this.output, { keepStyle: true }).replace(/\s+$/, "");
		let outputLines = output === "" ? [] : output.split("\n");
		if (!this.expanded && outputLines.length > COLLAPSED_LINES) {
			const hidden = outputLines.length - COLLAPSED_LINES;
			outputLines = [
				this.theme.fg("muted", `… (${hidden} earlier lines, ${expandHint()})`),
				...outputLines.slice(-COLLAPSED_LINES),
			];
		}
		const status = this.statusLine();
		const body = [title + suffix, ...outputLines, ...(status ? [status] : [])].flatMap((line) =>
			line === ""
				? [""]
				: wrapTextWithAnsi(line, Math.max(1, width - 1)).map((l) => truncateToWidth(` ${l}`, width)),
		);
		const lines = ["", border, ...body, border];
		this.cache = { width, lines };
		return lines;
	}
}
