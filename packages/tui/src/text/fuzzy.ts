/** A fuzzy match: whether every query character occurs in order, and how well (lower is better). */
export interface FuzzyMatch {
	matches: boolean;
	score: number;
}

const BOUNDARY = /[\s\-_./:]/;

/** Runs of adjacent characters, word starts and early positions score better; gaps cost. */
function scorePositions(text: string, positions: readonly number[]): number {
	let score = 0;
	let last = -1;
	let run = 0;
	for (const at of positions) {
		if (last === at - 1) {
			run++;
			score -= run * 5;
		} else {
			run = 0;
			if (last >= 0) score += (at - last - 1) * 2;
		}
		if (at === 0 || BOUNDARY.test(text[at - 1]!)) score -= 10;
		score += at * 0.1;
		last = at;
	}
	return score;
}

function matchLowercase(query: string, text: string): FuzzyMatch {
	if (query.length === 0) return { matches: true, score: 0 };
	if (query.length > text.length) return { matches: false, score: 0 };
	const positions: number[] = [];
	for (const char of query) {
		const at = text.indexOf(char, (positions.at(-1) ?? -1) + 1);
		if (at < 0) return { matches: false, score: 0 };
		positions.push(at);
	}
	let score = scorePositions(text, positions);
	// The first-occurrence alignment may scatter the query over an unrelated earlier part of the text,
	// so every contiguous occurrence is scored too and the best alignment wins.
	for (let start = text.indexOf(query); start !== -1; start = text.indexOf(query, start + 1)) {
		score = Math.min(
			score,
			scorePositions(
				text,
				positions.map((_, k) => start + k),
			),
		);
	}
	if (query === text) score -= 100;
	return { matches: true, score };
}

/**
 * Case-insensitive subsequence match. A query of letters then digits (or digits then letters) that does
 * not match is tried swapped (`opus4` finds `4-opus`), at a small penalty.
 */
export function fuzzyMatch(query: string, text: string): FuzzyMatch {
	const q = query.toLowerCase();
	const t = text.toLowerCase();
	const direct = matchLowercase(q, t);
	if (direct.matches) return direct;
	const parts = /^([a-z]+)([0-9]+)$/.exec(q) ?? /^([0-9]+)([a-z]+)$/.exec(q);
	if (!parts) return direct;
	const swapped = matchLowercase(parts[2]! + parts[1]!, t);
	return swapped.matches ? { matches: true, score: swapped.score + 5 } : direct;
}

/** Items whose text matches every whitespace- or `/`-separated token, best first. */
export function fuzzyFilter<T>(items: readonly T[], query: string, getText: (item: T) => string): T[] {
	const tokens = query
		.trim()
		.split(/[\s/]+/)
		.filter((token) => token.length > 0);
	if (tokens.length === 0) return [...items];
	const scored: { item: T; score: number }[] = [];
	for (const item of items) {
		const text = getText(item);
		let total = 0;
		const all = tokens.every((token) => {
			const match = fuzzyMatch(token, text);
			total += match.score;
			return match.matches;
		});
		if (all) scored.push({ item, score: total });
	}
	return scored.sort((a, b) => a.score - b.score).map((entry) => entry.item);
}
