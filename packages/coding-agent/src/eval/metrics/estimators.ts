/** C(n, k) as a float; exact for the trial counts an eval uses. */
export function binomial(n: number, k: number): number {
	if (k < 0 || k > n) return 0;
	let result = 1;
	for (let i = 1; i <= Math.min(k, n - k); i++) result = (result * (n - i + 1)) / i;
	return result;
}

/** Unbiased pass@k from n trials with c passes: the chance that at least one of k draws passes. */
export function passAtK(n: number, c: number, k: number): number {
	return 1 - binomial(n - c, k) / binomial(n, k);
}

/** Unbiased pass^k from n trials with c passes: the chance that all k draws pass. */
export function passHatK(n: number, c: number, k: number): number {
	return binomial(c, k) / binomial(n, k);
}

/** Mean, sample standard deviation, minimum and maximum. */
export interface Spread {
	mean: number;
	stddev: number;
	min: number;
	max: number;
}

export function spreadOf(values: readonly number[]): Spread {
	if (values.length === 0) return { mean: 0, stddev: 0, min: 0, max: 0 };
	const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
	const variance =
		values.length > 1 ? values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1) : 0;
	return { mean, stddev: Math.sqrt(variance), min: Math.min(...values), max: Math.max(...values) };
}
