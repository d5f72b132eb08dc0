import type { AgentSession } from "../../core/agent-session/agent-session.js";
import type { SessionStats } from "../../core/agent-session/session-stats.js";

/** Kept for the interactive mode, which still imports it; the figures are the session's own. */
export function computeSessionStats(session: AgentSession): SessionStats {
	return session.getSessionStats();
}
