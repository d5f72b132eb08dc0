import type { AgentEvent } from "@tau/agent";
import type { CompactionResult } from "../compaction/index.js";
import type { SessionEntry } from "../session/index.js";

export type CompactionReason = "manual" | "threshold" | "overflow";

/** A finished compaction as the session reports it: the stored result and the rebuilt context's estimated size. */
export type SessionCompactionResult = CompactionResult & { estimatedTokensAfter: number };

/** Everything `AgentSession.subscribe` delivers: the agent-core events plus the session's own. */
export type AgentSessionEvent =
	| Exclude<AgentEvent, { type: "agent_end" }>
	| { type: "agent_end"; messages: Extract<AgentEvent, { type: "agent_end" }>["messages"]; willRetry: boolean }
	| { type: "agent_settled"; aborted: boolean }
	| { type: "queue_update"; steering: readonly string[]; followUp: readonly string[] }
	| { type: "compaction_start"; reason: CompactionReason }
	| {
			type: "compaction_end";
			reason: CompactionReason;
			result: SessionCompactionResult | undefined;
			aborted: boolean;
			willRetry: boolean;
			errorMessage?: string;
	  }
	| { type: "auto_retry_start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
	| { type: "auto_retry_end"; success: boolean; attempt: number; finalError?: string }
	| {
			type: "summarization_retry_scheduled";
			attempt: number;
			maxAttempts: number;
			delayMs: number;
			errorMessage: string;
	  }
	| { type: "summarization_retry_attempt_start"; source: "branchSummary" }
	| { type: "summarization_retry_attempt_start"; source: "compaction"; reason: CompactionReason }
	| { type: "summarization_retry_finished" }
	| { type: "entry_appended"; entry: SessionEntry }
	| { type: "session_info_changed"; name: string | undefined }
	| { type: "thinking_level_changed"; level: string };

export type AgentSessionListener = (event: AgentSessionEvent) => void;

/**
 * Public listeners: called synchronously in subscription order; a throwing listener is reported and
 * skipped so it can neither break the run nor prevent persistence (a tau deviation from pi).
 */
export class SessionEventHub {
	private listeners = new Set<AgentSessionListener>();

	constructor(private readonly reportListenerError: (error: unknown) => void) {}

	subscribe(listener: AgentSessionListener): () => void {
		this.listeners.add(listener);
		return () => {
			this.listeners.delete(listener);
		};
	}

	emit(event: AgentSessionEvent): void {
		for (const listener of [...this.listeners]) {
			try {
				listener(event);
			} catch (error) {
				this.reportListenerError(error);
			}
		}
	}

	clear(): void {
		this.listeners.clear();
	}
}
