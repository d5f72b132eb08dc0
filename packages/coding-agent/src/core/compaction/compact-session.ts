import type { Api, Model } from "@tau/ai";
import type { CompactionSettings } from "../../config/settings/index.js";
import type { SessionManager } from "../session/manager.js";
import type { CompactionEntry } from "../session/types.js";
import { type CompactionPreparation, prepareCompaction } from "./preparation.js";
import { type CompactionResult, compact, type SummarizationOptions } from "./summarizer.js";

export interface CompactSessionOptions extends SummarizationOptions {
	model: Model<Api>;
	settings: CompactionSettings;
	/**
	 * Lets a caller (an extension hook) supply the result instead of the built-in summarizer; the entry is
	 * then marked `fromHook: true`. Returning undefined falls back to the summarizer.
	 */
	provideResult?: (preparation: CompactionPreparation) => Promise<CompactionResult | undefined>;
}

/**
 * Compacts the active branch and appends the compaction entry. Throws `Already compacted` when the
 * branch ends with a compaction, `Nothing to compact (session too small)` when nothing would be summarized,
 * and the summarizer's error when the summary is rejected (nothing is appended then).
 */
export async function compactSession(
	manager: SessionManager,
	options: CompactSessionOptions,
): Promise<CompactionEntry> {
	const branch = manager.getBranch();
	if (branch.length > 0 && branch[branch.length - 1]!.type === "compaction") throw new Error("Already compacted");
	const preparation = prepareCompaction(branch, options.settings);
	if (!preparation) throw new Error("Nothing to compact (session too small)");
	const provided = await options.provideResult?.(preparation);
	const result = provided ?? (await compact(preparation, options.model, options));
	options.signal?.throwIfAborted();
	const id = manager.appendCompaction(
		result.summary,
		result.firstKeptEntryId,
		result.tokensBefore,
		result.details,
		provided ? true : undefined,
		result.usage,
	);
	return manager.getEntry(id) as CompactionEntry;
}
