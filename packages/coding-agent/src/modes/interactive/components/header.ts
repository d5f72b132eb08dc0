import type { Component, KeybindingsManager } from "@tau/tui";
import { sanitizeTerminalText, truncateToWidth, wrapTextWithAnsi } from "@tau/tui";
import { boundKey } from "../keybindings/app-keybindings.js";
import type { UiTheme } from "../theme/ui-theme.js";

export interface HeaderInfo {
	appName: string;
	version: string;
	/** Startup details (model scope, loaded resources); shown only when expanded, read on each layout. */
	details: () => readonly string[];
}

/** Startup banner with key hints; `app.tools.expand` switches between the compact and full forms. */
export class HeaderView implements Component {
	expanded = false;
	private cache: { key: string; lines: string[] } | undefined;

	constructor(
		private readonly theme: UiTheme,
		private readonly keys: KeybindingsManager,
		private readonly info: HeaderInfo,
	) {}

	invalidate(): void {
		this.cache = undefined;
	}

	private hint(action: string, text: string): string {
		const key = boundKey(this.keys, action);
		return key ? `${this.theme.fg("accent", key)} ${this.theme.fg("muted", text)}` : "";
	}

	private compactLines(details: readonly string[]): string[] {
		const clear = boundKey(this.keys, "app.clear");
		const exit = boundKey(this.keys, "app.exit");
		const hints = [
			this.hint("app.interrupt", "interrupt"),
			`${this.theme.fg("accent", `${clear}/${exit}`)} ${this.theme.fg("muted", "clear/exit")}`,
			`${this.theme.fg("accent", "/")} ${this.theme.fg("muted", "commands")}`,
			`${this.theme.fg("accent", "!")} ${this.theme.fg("muted", "bash")}`,
			this.hint("app.tools.expand", "more"),
		].filter((hint) => hint !== "");
		const expand = boundKey(this.keys, "app.tools.expand");
		const more = details.length > 0 ? " and loaded resources" : "";
		return [
			hints.join(this.theme.fg("dim", " · ")),
			this.theme.dim(`Press ${expand} to show full startup help${more}.`),
			"",
			this.theme.dim(
				`Ask ${this.info.appName} about its own features: it can explain commands, settings and extensions.`,
			),
		];
	}

	private expandedLines(details: readonly string[]): string[] {
		const clear = boundKey(this.keys, "app.clear");
		const lines = [
			this.hint("app.interrupt", "to interrupt"),
			this.hint("app.clear", "to clear"),
			clear ? `${this.theme.fg("accent", `${clear} twice`)} ${this.theme.fg("muted", "to exit")}` : "",
			this.hint("app.exit", "to exit (empty)"),
			this.hint("app.suspend", "to suspend"),
			this.hint("tui.editor.deleteToLineEnd", "to delete to end"),
			this.hint("app.thinking.cycle", "to cycle thinking level"),
			`${this.theme.fg("accent", `${boundKey(this.keys, "app.model.cycleForward")}/${boundKey(this.keys, "app.model.cycleBackward")}`)} ${this.theme.fg("muted", "to cycle models")}`,
			this.hint("app.model.select", "to select model"),
			this.hint("app.tools.expand", "to expand tools"),
			this.hint("app.thinking.toggle", "to expand thinking"),
			this.hint("app.editor.external", "for external editor"),
			`${this.theme.fg("accent", "/")} ${this.theme.fg("muted", "for commands")}`,
			`${this.theme.fg("accent", "!")} ${this.theme.fg("muted", "to run bash")}`,
			`${this.theme.fg("accent", "!!")} ${this.theme.fg("muted", "to run bash (no context)")}`,
			this.hint("app.message.followUp", "to queue follow-up"),
			this.hint("app.message.dequeue", "to edit all queued messages"),
			this.hint("app.clipboard.pasteImage", "to paste files/images/text"),
			`${this.theme.fg("accent", "drop files")} ${this.theme.fg("muted", "to attach")}`,
		].filter((line) => line !== "");
		return details.length > 0 ? [...lines, "", ...details] : lines;
	}

	render(width: number): readonly string[] {
		const key = `${width}:${this.expanded}`;
		if (this.cache?.key === key) return this.cache.lines;
		const title = `${this.theme.bold(this.theme.fg("accent", this.info.appName))} ${this.theme.dim(`v${this.info.version}`)}`;
		// Startup details name files and resources from the project: styled by tau, sanitised here.
		const details = this.info
			.details()
			.flatMap((line) => sanitizeTerminalText(line, { keepStyle: true }).split("\n"));
		const body = this.expanded ? this.expandedLines(details) : this.compactLines(details);
		const lines = [title, ...body, ""].flatMap((line) =>
			line === "" ? [""] : wrapTextWithAnsi(line, width).map((l) => truncateToWidth(l, width)),
		);
		this.cache = { key, lines };
		return lines;
	}
}
