import { normalizeTerminalOutput } from "../text/segments.js";
import { visibleWidth } from "../text/width.js";
import { CURSOR_MARKER, FAKE_CURSOR_END, FAKE_CURSOR_START } from "./component.js";

/** Appended to every text line so styling and links never bleed into the next row. */
export const LINE_RESET = "\x1b[0m\x1b]8;;\x07";

const PROMPT_MARKERS = /^(?:\x1b\]133;[ABC](?:\x07|\x1b\\))+/;

export function isImageLine(line: string): boolean {
	return line.includes("\x1b_G") || line.includes("\x1b]1337;File=");
}

/** OSC 133 prompt-zone markers would make the terminal think a shell prompt started. */
export function stripPromptMarkers(lines: readonly string[]): readonly string[] {
	let out: string[] | undefined;
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i]!;
		if (!line.startsWith("\x1b]133;")) continue;
		out ??= [...lines];
		out[i] = line.replace(PROMPT_MARKERS, "");
	}
	return out ?? lines;
}

/** Turns fake-cursor markers into reverse video, or plain text where the hardware cursor sits. */
export function resolveFakeCursors(lines: readonly string[], hardwareCursorShown: boolean): readonly string[] {
	let out: string[] | undefined;
	for (let i = 0; i < lines.length; i++) {
		let line = lines[i]!;
		if (!line.includes(FAKE_CURSOR_START)) continue;
		if (hardwareCursorShown) {
			const at = line.indexOf(CURSOR_MARKER + FAKE_CURSOR_START);
			if (at >= 0) {
				const start = at + CURSOR_MARKER.length;
				const end = line.indexOf(FAKE_CURSOR_END, start);
				const cell =
					end >= 0
						? line.slice(start + FAKE_CURSOR_START.length, end)
						: line.slice(start + FAKE_CURSOR_START.length);
				const rest = end >= 0 ? line.slice(end + FAKE_CURSOR_END.length) : "";
				line = line.slice(0, start) + cell + rest;
			}
		}
		out ??= [...lines];
		out[i] = line.replaceAll(FAKE_CURSOR_START, "\x1b[7m").replaceAll(FAKE_CURSOR_END, "\x1b[27m");
	}
	return out ?? lines;
}

export interface CursorPosition {
	row: number;
	col: number;
}

/** Finds the cursor marker in the bottom `rows` lines (bottom up) and removes the markers there. */
export function extractCursor(lines: string[], rows: number): CursorPosition | null {
	const top = Math.max(0, lines.length - rows);
	for (let row = lines.length - 1; row >= top; row--) {
		const line = lines[row]!;
		const at = line.indexOf(CURSOR_MARKER);
		if (at < 0) continue;
		const col = visibleWidth(line.slice(0, at));
		lines[row] = line.replaceAll(CURSOR_MARKER, "");
		return { row, col };
	}
	return null;
}

/** Per-line reset: markers removed, output normalised, SGR and OSC 8 closed. Image lines untouched. */
export function applyLineResets(lines: readonly string[]): string[] {
	const out: string[] = new Array(lines.length);
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i]!;
		if (isImageLine(line)) {
			out[i] = line;
			continue;
		}
		const clean = line.includes(CURSOR_MARKER) ? line.replaceAll(CURSOR_MARKER, "") : line;
		out[i] = normalizeTerminalOutput(clean) + LINE_RESET;
	}
	return out;
}
