import { escapeLength, osc8Url } from "./ansi.js";
import { StyleState } from "./style-state.js";
import { sliceWithWidth } from "./truncate.js";
import { cells } from "./width.js";

/** Same width, but avoids repaint artifacts; TABs outside escape sequences become 3 spaces. */
export function normalizeTerminalOutput(s: string): string {
	const out = s.replaceAll("\u0e33", "\u0e4d\u0e32").replaceAll("\u0eb3", "\u0ecd\u0eb2");
	if (!out.includes("\t")) return out;
	let result = "";
	let i = 0;
	while (i < out.length) {
		const len = escapeLength(out, i);
		if (len > 0) {
			result += out.slice(i, i + len);
			i += len;
		} else {
			result += out[i] === "\t" ? "   " : out[i];
			i++;
		}
	}
	return result;
}

/** URL of the OSC 8 hyperlink covering column `col` of `line`, if any. */
export function getOsc8LinkAtColumn(line: string, col: number): string | undefined {
	let link: string | undefined;
	let at = 0;
	for (const cell of cells(line)) {
		if (cell.escape) {
			const url = osc8Url(cell.text);
			if (url !== undefined) link = url || undefined;
			continue;
		}
		if (col >= at && col < at + cell.width) return link;
		at += cell.width;
	}
	return undefined;
}

export interface LineSegments {
	before: string;
	beforeWidth: number;
	after: string;
	afterWidth: number;
}

/** The parts of `line` before an overlay region and after it; "after" re-opens the style active there. */
export function extractSegments(
	line: string,
	beforeEnd: number,
	afterStart: number,
	afterLen: number,
	strictAfter: boolean,
): LineSegments {
	const before = sliceWithWidth(line, 0, beforeEnd, true);
	const state = new StyleState();
	let col = 0;
	let restStart = line.length;
	let offset = 0;
	for (const cell of cells(line)) {
		if (!cell.escape && col >= afterStart) {
			restStart = offset;
			break;
		}
		if (cell.escape) state.apply(cell.text);
		else col += cell.width;
		offset += cell.text.length;
	}
	// A wide character straddling afterStart is skipped: its right half is under the overlay.
	const rest = restStart < line.length ? line.slice(restStart) : "";
	const tail = sliceWithWidth(rest, 0, afterLen, strictAfter);
	const lead = col > afterStart ? " ".repeat(col - afterStart) : "";
	return {
		before: before.text,
		beforeWidth: before.width,
		after: tail.width > 0 ? state.activeCodes() + lead + tail.text : "",
		afterWidth: tail.width > 0 ? lead.length + tail.width : 0,
	};
}
