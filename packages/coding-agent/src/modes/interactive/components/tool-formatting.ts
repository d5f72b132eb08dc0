import { sanitizeTerminalText } from "@tau/tui";
import type { UiTheme } from "../theme/ui-theme.js";
import { summarizeToolCall } from "./tool-summary.js";

/** The title line of a tool call: built-in tools get a readable form, others their JSON arguments. */
export function describeToolCall(theme: UiTheme, name: string, args: Record<string, unknown>): string {
	// Code mode's script and its calls are the body (codemode-view.ts), not the title.
	if (name === "codemode") return theme.bold(theme.fg("toolTitle", "codemode"));
	// Names and arguments come from the model (and files it read): shown sanitised, on one line.
	const raw = summarizeToolCall(name, args);
	const summary = { title: shown(raw.title) ?? "", target: shown(raw.target), note: shown(raw.note) };
	const title = theme.bold(theme.fg("toolTitle", summary.title));
	if (summary.target !== undefined) {
		const note = summary.note ? theme.fg("muted", summary.note) : "";
		return `${title} ${theme.fg("accent", summary.target)}${note}`;
	}
	return summary.note !== undefined ? `${title} ${theme.fg("muted", summary.note)}` : title;
}

function shown(value: string | undefined): string | undefined {
	return value === undefined ? undefined : sanitizeTerminalText(value).replace(/\n/g, " ");
}
