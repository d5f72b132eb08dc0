/**
 * What an HTML export embeds for its viewer (docs/export.md). Shared by the exporter (Node) and the
 * page script (browser), so it imports nothing. Entries are the session file's lines as parsed JSON:
 * the viewer treats every field as untrusted.
 */
export interface ViewerPayload {
	/** Bumped when the shape changes incompatibly. */
	format: 1;
	app: { name: string; version: string };
	exportedAt: string;
	/** The session header, then every entry in file order. */
	entries: unknown[];
	/** The entry the session was at when exported (the last line when exported from a file). */
	leafId: string | null;
	/** The exporting theme's colours; absent when the page should follow the reader's preference. */
	theme?: ViewerTheme;
	/** Lines that extensions' tool renderers drew (ANSI styled), by tool call id. */
	toolRenders?: Record<string, ViewerToolRender>;
}

export interface ViewerTheme {
	name: string;
	appearance: "dark" | "light";
	/** CSS colours (`#rrggbb`) by theme token (`accent`, `toolDiffAdded`, `pageBg` ...). */
	colors: Record<string, string>;
}

/** A tool call as an extension renders it in the TUI: the call line(s) and the result, collapsed and expanded. */
export interface ViewerToolRender {
	call?: string[];
	result?: string[];
	resultExpanded?: string[];
}
