import type { ContextUsage } from "../extensions/index.js";
import type { SessionEntryTotals } from "../session/entry-totals.js";
import type { SessionManager } from "../session/index.js";

/** Message counts and spend of a whole session file (RPC `get_session_stats`, `/session`). */
export interface SessionStats extends SessionEntryTotals {
	sessionFile?: string;
	sessionId: string;
	contextUsage?: ContextUsage;
}

/** Totals over every entry of the file, not just the active branch (kept by the session tree as it indexes). */
export function computeSessionStats(
	sessionManager: SessionManager,
	contextUsage: ContextUsage | undefined,
): SessionStats {
	const file = sessionManager.getSessionFile();
	const stats: SessionStats = {
		...(file ? { sessionFile: file } : {}),
		sessionId: sessionManager.getSessionId(),
		...sessionManager.getEntryTotals(),
	};
	if (contextUsage) stats.contextUsage = contextUsage;
	return stats;
}
