import { binomial } from "./estimators.js";

/** Probability of a 2×2 table with these margins having `a` in its top-left cell (hypergeometric). */
function tableProbability(a: number, rowA: number, rowB: number, passes: number): number {
	return (binomial(rowA, a) * binomial(rowB, passes - a)) / binomial(rowA + rowB, passes);
}

/**
 * Two-sided Fisher's exact test on passes/failures of two runs: the probability, if both setups were
 * equally good, of a split at least as lopsided as the one observed. Small values mean a real change.
 */
export function fisherExactP(passesA: number, trialsA: number, passesB: number, trialsB: number): number {
	const passes = passesA + passesB;
	const observed = tableProbability(passesA, trialsA, trialsB, passes);
	let p = 0;
	for (let a = Math.max(0, passes - trialsB); a <= Math.min(trialsA, passes); a++) {
		const probability = tableProbability(a, trialsA, trialsB, passes);
		// A relative tolerance keeps tables equal to the observed one despite floating-point noise.
		if (probability <= observed * (1 + 1e-7)) p += probability;
	}
	return Math.min(1, p);
}
