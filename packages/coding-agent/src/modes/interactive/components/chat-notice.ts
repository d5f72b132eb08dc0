import { sanitizeTerminalText, Text } from "@tau/tui";
import type { UiTheme } from "../theme/ui-theme.js";

export type NoticeKind = "info" | "success" | "warning" | "error";

const TOKEN: Record<NoticeKind, string> = { info: "muted", success: "success", warning: "warning", error: "error" };

/** One status line in the transcript: command feedback, warnings, errors (which may quote untrusted text). */
export function chatNotice(theme: UiTheme, kind: NoticeKind, message: string): Text {
	const prefix = kind === "error" ? "Error: " : kind === "warning" ? "Warning: " : "";
	return new Text(theme.fg(TOKEN[kind], `${prefix}${sanitizeTerminalText(message)}`), 1, 0);
}
