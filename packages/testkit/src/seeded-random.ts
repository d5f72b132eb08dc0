/**
 * A deterministic pseudo-random source (mulberry32) for generated test inputs: the same seed gives the
 * same sequence on every run and machine, so a failing generated case can be reproduced.
 */
export interface SeededRandom {
	/** A float in [0, 1). */
	next(): number;
	/** An integer in [min, max]. */
	int(min: number, max: number): number;
	/** One element of a non-empty list. */
	pick<T>(items: readonly T[]): T;
	/** A string of `length` pieces drawn from `alphabet` (each piece may be several code units). */
	string(alphabet: readonly string[], length: number): string;
}

/** A deterministic random generator: the same seed gives the same sequence, for reproducible generated inputs. */
export function seededRandom(seed: number): SeededRandom {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
	const pick = <T>(items: readonly T[]) => items[int(0, items.length - 1)]!;
	return {
		next,
		int,
		pick,
		string: (alphabet, length) => Array.from({ length }, () => pick(alphabet)).join(""),
	};
}
