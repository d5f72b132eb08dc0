import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type EvalSummary, summarize } from "../metrics/summary.js";
import type { AgentSetup } from "../trial/agent-setup.js";
import { type TrialRecord, trialKey } from "./trial-record.js";

/** `run.json`: what `--resume` needs to finish the same run, and what reports show as the setup. */
export interface RunConfig {
	/** Task or suite paths, absolute. */
	paths: string[];
	filter?: string;
	k: number;
	backend: string;
	concurrency: number;
	setup: AgentSetup;
	/** `[index, count]`, 0-based index, when this directory holds one shard. */
	shard?: [number, number];
}

export const RUN_FILE = "run.json";
export const TRIALS_FILE = "trials.jsonl";
export const SUMMARY_FILE = "summary.json";

export function writeRunConfig(dir: string, config: RunConfig): void {
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, RUN_FILE), `${JSON.stringify(config, null, 2)}\n`);
}

export function readRunConfig(dir: string): RunConfig {
	const path = join(dir, RUN_FILE);
	if (!existsSync(path)) throw new Error(`${dir} holds no ${RUN_FILE}: not a tau eval run directory`);
	return JSON.parse(readFileSync(path, "utf8")) as RunConfig;
}

/**
 * The recorded trials. A process killed mid-write leaves at most a partial last line, which is
 * dropped (that trial runs again on `--resume`); a trial recorded twice keeps its first record.
 */
export function readTrials(dir: string): TrialRecord[] {
	const path = join(dir, TRIALS_FILE);
	if (!existsSync(path)) return [];
	const records = new Map<string, TrialRecord>();
	for (const line of readFileSync(path, "utf8").split("\n")) {
		if (line.trim() === "") continue;
		let record: TrialRecord;
		try {
			record = JSON.parse(line) as TrialRecord;
		} catch {
			continue;
		}
		if (!records.has(trialKey(record))) records.set(trialKey(record), record);
	}
	return [...records.values()];
}

/** Appends one record as a single write, so a kill never interleaves two records. */
export function appendTrial(dir: string, record: TrialRecord): void {
	const path = join(dir, TRIALS_FILE);
	// A partial line left by a killed run must not swallow the next record.
	const text = existsSync(path) ? readFileSync(path, "utf8") : "";
	const prefix = text.length > 0 && !text.endsWith("\n") ? "\n" : "";
	appendFileSync(path, `${prefix}${JSON.stringify(record)}\n`);
}

/** Replaces the trial log with these records (merging shards). */
export function writeTrials(dir: string, records: readonly TrialRecord[]): void {
	writeFileSync(join(dir, TRIALS_FILE), records.map((record) => `${JSON.stringify(record)}\n`).join(""));
}

export function writeSummary(dir: string, records: readonly TrialRecord[]): EvalSummary {
	const summary = summarize(records);
	writeFileSync(join(dir, SUMMARY_FILE), `${JSON.stringify(summary, null, 2)}\n`);
	return summary;
}
