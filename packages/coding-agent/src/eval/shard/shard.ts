/** Environment variables holding a 0-based shard index: a Kubernetes Indexed Job's, then tau's own for CI matrices. */
export const SHARD_INDEX_VARIABLES = ["JOB_COMPLETION_INDEX", "TAU_EVAL_SHARD_INDEX"] as const;

/** A 0-based shard index and the shard count. */
export type Shard = [index: number, count: number];

function wholeNumber(text: string): number | undefined {
	return /^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

/**
 * `--shard i/n` (i from 1 to n, as a person counts) or `--shard n` with the index taken from
 * `JOB_COMPLETION_INDEX` or `TAU_EVAL_SHARD_INDEX` (0-based, as Kubernetes and CI matrices count).
 */
export function parseShard(value: string, env: NodeJS.ProcessEnv = process.env): Shard {
	const [first, second] = value.split("/");
	if (second !== undefined) {
		const index = wholeNumber(first ?? "");
		const count = wholeNumber(second);
		if (index === undefined || count === undefined || count < 1 || index < 1 || index > count) {
			throw new Error(`--shard ${value}: expected i/n with 1 <= i <= n`);
		}
		return [index - 1, count];
	}
	const count = wholeNumber(value);
	if (count === undefined || count < 1) throw new Error(`--shard ${value}: expected i/n or a shard count`);
	for (const name of SHARD_INDEX_VARIABLES) {
		const raw = env[name];
		if (raw === undefined || raw === "") continue;
		const index = wholeNumber(raw);
		if (index === undefined || index >= count) throw new Error(`${name}=${raw} is not a shard index below ${count}`);
		return [index, count];
	}
	throw new Error(`--shard ${value}: no shard index (set ${SHARD_INDEX_VARIABLES.join(" or ")}, or pass i/n)`);
}

/** The deterministic slice of a run's trials a shard runs: every n-th one, so each shard mixes tasks. */
export function shardSlice<T>(items: readonly T[], shard: Shard | undefined): T[] {
	if (!shard) return [...items];
	const [index, count] = shard;
	return items.filter((_, position) => position % count === index);
}
