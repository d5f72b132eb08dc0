import { normalizeTerminalOutput } from "../text/segments.js";
import { visibleWidth } from "../text/width.js";
import { CURSOR_MARKER, FAKE_CURSOR_END, FAKE_CURSOR_START } from "./component.js";

/** Appended to every text line so styling and links never bleed into the next row. */
export const LINE_RESET = "\x1b[0m\x1b]8;;\x07";

const PROMPT_MARKERS = /^(?:\x1b\]133;[ABC](?:\x07|\x1b\\))+/;

export function isImageLine(line: string): boolean {
	return line.includes("\x1b_G") || line.includes("\x1b]1337;File=");
}

/** One line with OSC 133 prefixes stripped and fake cursors resolved (see below). */
export function prepareLine(line: string, hardwareCursorShown: boolean): string {
	let out = line.startsWith("\x1b]133;") ? line.replace(PROMPT_MARKERS, "") : line;
	if (out.includes(FAKE_CURSOR_START)) out = resolveFakeCursorLine(out, hardwareCursorShown);
	return out;
}

/** One line with the per-line reset applied (image lines untouched). */
export function resetLine(line: string): string {
	if (isImageLine(line)) return line;
	const clean = line.includes(CURSOR_MARKER) ? line.replaceAll(CURSOR_MARKER, "") : line;
	return normalizeTerminalOutput(clean) + LINE_RESET;
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
		const line = lines[i]!;
		if (!line.includes(FAKE_CURSOR_START)) continue;
		out ??= [...lines];
		out[i] = resolveFakeCursorLine(line, hardwareCursorShown);
	}
	return out ?? lines;
}

function resolveFakeCursorLine(input: string, hardwareCursorShown: boolean): string {
	let line = input;
	if (hardwareCursorShown) {
		const at = line.indexOf(CURSOR_MARKER + FAKE_CURSOR_START);
		if (at >= 0) {
			// A truncated line may lack the END marker: then everything after START is the cell.
			const start = at + CURSOR_MARKER.length;
			const end = line.indexOf(FAKE_CURSOR_END, start);
			const cell = line.slice(start + FAKE_CURSOR_START.length, end >= 0 ? end : undefined);
			const rest = end >= 0 ? line.slice(end + FAKE_CURSOR_END.length) : "";
			line = line.slice(0, start) + cell + rest;
		}
	}
	return line.replaceAll(FAKE_CURSOR_START, "\x1b[7m").replaceAll(FAKE_CURSOR_END, "\x1b[27m");
}

export interface CursorPosition {
	row: number;
	col: number;
}

/** Finds the cursor marker in the bottom `rows` lines (bottom up); markers are removed later by `resetLine`. */
export function findCursor(lines: readonly string[], rows: number): CursorPosition | null {
	const top = Math.max(0, lines.length - rows);
	for (let row = lines.length - 1; row >= top; row--) {
		const line = lines[row]!;
		const at = line.indexOf(CURSOR_MARKER);
		if (at >= 0) return { row, col: visibleWidth(line.slice(0, at)) };
	}
	return null;
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
	return lines.map(resetLine);
}
