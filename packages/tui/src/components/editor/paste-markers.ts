/** Large pastes are shown as atomic markers and expanded on submit. */

const MARKER = /\[paste #(\d+) (?:\+\d+ lines|\d+ chars)\]/g;

export function isLargePaste(text: string): boolean {
	return text.split("\n").length > 10 || text.length > 1000;
}

export function pasteMarker(id: number, text: string): string {
	const lines = text.split("\n").length;
	return lines > 10 ? `[paste #${id} +${lines} lines]` : `[paste #${id} ${text.length} chars]`;
}

/** Markers in `line` whose paste is still stored, with their UTF-16 ranges. */
export function findMarkers(
	line: string,
	pastes: ReadonlyMap<number, string>,
): { start: number; end: number; id: number }[] {
	const out: { start: number; end: number; id: number }[] = [];
	for (const m of line.matchAll(MARKER)) {
		const id = Number(m[1]);
		if (pastes.has(id)) out.push({ start: m.index, end: m.index + m[0].length, id });
	}
	return out;
}

/** Replaces every valid marker with its paste content. */
export function expandMarkers(text: string, pastes: ReadonlyMap<number, string>): string {
	return text.replace(MARKER, (whole, id: string) => pastes.get(Number(id)) ?? whole);
}

/** After paste `removed` is deleted, higher-numbered markers and pastes shift down by one. */
export function renumberAfterRemoval(
	lines: string[],
	pastes: Map<number, string>,
	removed: number,
): { lines: string[]; pastes: Map<number, string> } {
	const next = new Map<number, string>();
	for (const [id, text] of pastes) {
		if (id === removed) continue;
		next.set(id > removed ? id - 1 : id, text);
	}
	const renumbered = lines.map((line) =>
		line.replace(MARKER, (whole, idText: string) => {
			const id = Number(idText);
			if (id <= removed || !pastes.has(id)) return whole;
			return whole.replace(`#${id} `, `#${id - 1} `);
		}),
	);
	return { lines: renumbered, pastes: next };
}
