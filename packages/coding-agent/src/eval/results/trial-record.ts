/** How a trial ended: infrastructure errors are neither passes nor task failures (docs/eval.md). */
export type TrialOutcome = "pass" | "fail" | "infra_error";

/** One line of `trials.jsonl`. */
export interface TrialRecord {
	task: string;
	/** 0-based index of the attempt at this task. */
	trial: number;
	outcome: TrialOutcome;
	/** The verifier's reward (0 when it failed or never ran). */
	reward: number;
	pass: boolean;
	durationMs: number;
	turns: number;
	toolCalls: number;
	tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
	cost: number;
	/** The last assistant message's stop reason (`timeout` when the agent's time ran out). */
	stopReason: string;
	error?: string;
	/** Relative to the run directory. */
	sessionFile?: string;
}

/** A trial's identity in a run: the same in every shard and after `--resume`. */
export function trialKey(record: { task: string; trial: number }): string {
	return `${record.task}#${record.trial}`;
}
