import { existsSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { TrialRecord } from "../results/trial-record.js";

/**
 * Exports each trial's session to HTML next to its session file (the same page `tau --export` writes)
 * and returns the page paths relative to the run directory, keyed by trial. Missing sessions are skipped.
 */
export async function exportTrialSessions(
	runDir: string,
	records: readonly TrialRecord[],
): Promise<Map<TrialRecord, string>> {
	const { exportSessionToHtml } = await import("../../export/html-export.js");
	const pages = new Map<TrialRecord, string>();
	for (const record of records) {
		if (record.sessionFile === undefined) continue;
		const source = resolve(runDir, record.sessionFile);
		if (!existsSync(source)) continue;
		const target = source.replace(/\.jsonl$/, "") + ".html";
		exportSessionToHtml(source, target);
		pages.set(record, relative(runDir, target) || join(".", target));
	}
	return pages;
}
