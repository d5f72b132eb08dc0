/** What a benchmark file receives. Benchmarks report samples; the runner prints medians. */
export interface BenchContext {
	/** Times `fn` `iterations` times after `warmup` untimed runs; records each duration in ms. */
	time(name: string, fn: () => unknown, options?: { iterations?: number; warmup?: number }): Promise<void>;
	/** Records samples measured by the benchmark itself (bytes, MB, ms per 1k tokens, ...). */
	record(name: string, unit: string, samples: readonly number[]): void;
}

/** The default export of a `bench/*.bench.ts` file. */
export type Bench = (ctx: BenchContext) => Promise<void>;
