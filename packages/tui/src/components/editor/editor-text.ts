/** The editor's text and cursor. */
export interface EditorState {
	lines: string[];
	cursorLine: number;
	cursorCol: number;
}

/** Text entering the editor: LF line ends, tabs as spaces, and no other controls (they would reach the terminal). */
export function normalizeEditorText(text: string): string {
	return text
		.replace(/\r\n|\r/g, "\n")
		.replaceAll("\t", "    ")
		.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, "");
}

export function stateFromText(text: string, cursor: "start" | "end"): EditorState {
	const lines = normalizeEditorText(text).split("\n");
	if (cursor === "start") return { lines, cursorLine: 0, cursorCol: 0 };
	return { lines, cursorLine: lines.length - 1, cursorCol: lines[lines.length - 1]!.length };
}
