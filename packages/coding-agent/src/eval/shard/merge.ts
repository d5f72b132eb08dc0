import { relative, resolve } from "node:path";
import type { EvalSummary } from "../metrics/summary.js";
import {
	type RunConfig,
	readRunConfig,
	readTrials,
	writeRunConfig,
	writeSummary,
	writeTrials,
} from "../results/run-directory.js";
import { type TrialRecord, trialKey } from "../results/trial-record.js";

/** A record whose session path is relative to `outDir` instead of the shard directory it came from. */
function relocate(record: TrialRecord, sourceDir: string, outDir: string): TrialRecord {
	if (record.sessionFile === undefined) return record;
	return { ...record, sessionFile: relative(resolve(outDir), resolve(sourceDir, record.sessionFile)) };
}

/**
 * `tau eval merge`: the trials of shard (or partial) runs of one setup combined into `outDir`, whose
 * summary equals that of one run over the same trials. Trial folders stay where they are.
 */
export function mergeRuns(sources: readonly string[], outDir: string): EvalSummary {
	if (sources.length === 0) throw new Error("tau eval merge needs at least one run directory");
	const configs = sources.map((dir) => readRunConfig(dir));
	const first = configs[0] as RunConfig;
	for (const [position, config] of configs.entries()) {
		if (JSON.stringify(config.setup) !== JSON.stringify(first.setup) || config.k !== first.k) {
			throw new Error(`${sources[position]} was run with another agent setup or -k than ${sources[0]}`);
		}
	}
	const records = new Map<string, TrialRecord>();
	for (const dir of sources) {
		for (const record of readTrials(dir)) {
			const key = trialKey(record);
			if (records.has(key)) throw new Error(`trial ${key} appears in more than one run directory`);
			records.set(key, relocate(record, dir, outDir));
		}
	}
	const { shard: _shard, ...merged } = first;
	writeRunConfig(outDir, merged);
	writeTrials(outDir, [...records.values()]);
	return writeSummary(outDir, [...records.values()]);
}
