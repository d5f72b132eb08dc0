const BOUNDARY = /[\s\-_./:]/;

function scoreAt(query: string, text: string): number | undefined {
	let score = 0;
	let qi = 0;
	let run = 0;
	let last = -1;
	for (let ti = 0; ti < text.length && qi < query.length; ti++) {
		if (text[ti] !== query[qi]) continue;
		if (last >= 0 && ti === last + 1) {
			run++;
			score -= 5 * run;
		} else {
			run = 0;
			if (last >= 0) score += 2 * (ti - last - 1);
		}
		if (ti === 0 || BOUNDARY.test(text[ti - 1]!)) score -= 10;
		score += 0.1 * ti;
		last = ti;
		qi++;
	}
	return qi === query.length ? score : undefined;
}

function scoreCaseless(query: string, text: string): number | undefined {
	if (query === text) return -100;
	let best = scoreAt(query, text);
	// Every contiguous occurrence is scored too, so a later exact run can beat an early scattered match.
	for (let at = text.indexOf(query); at >= 0; at = text.indexOf(query, at + 1)) {
		const s = scoreAt(query, text.slice(at));
		if (s === undefined) continue;
		const shifted = s + 0.1 * at * query.length;
		if (best === undefined || shifted < best) best = shifted;
	}
	return best;
}

/** Fuzzy subsequence match; lower score is better, undefined when `query` does not match. */
export function fuzzyMatch(query: string, text: string): number | undefined {
	const q = query.toLowerCase();
	const t = text.toLowerCase();
	const direct = scoreCaseless(q, t);
	const swapped = /^([a-z]+)(\d+)$/.exec(q) ?? /^(\d+)([a-z]+)$/.exec(q);
	if (!swapped) return direct;
	const alt = scoreCaseless(swapped[2]! + swapped[1]!, t);
	if (alt === undefined) return direct;
	return direct === undefined ? alt + 5 : Math.min(direct, alt + 5);
}

/** Items whose text matches every whitespace- or `/`-separated token, best first. */
export function fuzzyFilter<T>(items: readonly T[], query: string, getText: (item: T) => string): T[] {
	const tokens = query.split(/[\s/]+/).filter((t) => t.length > 0);
	if (tokens.length === 0) return [...items];
	const scored: { item: T; score: number }[] = [];
	for (const item of items) {
		const text = getText(item);
		let total = 0;
		let ok = true;
		for (const token of tokens) {
			const s = fuzzyMatch(token, text);
			if (s === undefined) {
				ok = false;
				break;
			}
			total += s;
		}
		if (ok) scored.push({ item, score: total });
	}
	return scored.sort((a, b) => a.score - b.score).map((s) => s.item);
}
