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

export interface SubscribeOptions {
	/**
	 * Also deliver the events only tau emits (docs/rpc.md, "tau-only events"): `entry_appended` for
	 * entries Pi appends silently (tool intents, model, thinking-level and name changes, repaired
	 * tool results). Without it a subscriber sees exactly Pi's event stream.
	 */
	tauEvents?: boolean;
}

/**
 * Public listeners: called synchronously in subscription order; a throwing listener is reported and
 * skipped so it can neither break the run nor prevent persistence (a tau deviation from pi).
 */
export class SessionEventHub {
	private listeners = new Map<AgentSessionListener, SubscribeOptions>();
	/**
	 * The listeners as of the last (un)subscription, replaced rather than changed: `emit` iterates it
	 * without copying per event (a stream has one per token), and a listener (un)subscribing during an
	 * event changes who hears the next one only.
	 */
	private snapshot: readonly (readonly [AgentSessionListener, SubscribeOptions])[] = [];

	constructor(private readonly reportListenerError: (error: unknown) => void) {}

	subscribe(listener: AgentSessionListener, options: SubscribeOptions = {}): () => void {
		// A listener subscribed twice is one listener, with the options of its latest subscription.
		this.listeners.set(listener, options);
		this.snapshot = [...this.listeners];
		return () => {
			if (this.listeners.delete(listener)) this.snapshot = [...this.listeners];
		};
	}

	/** Delivers `event`; a `tauOnly` event reaches only listeners that asked for tau's events. */
	emit(event: AgentSessionEvent, origin?: { tauOnly?: boolean }): void {
		for (const [listener, options] of this.snapshot) {
			if (origin?.tauOnly && !options.tauEvents) continue;
			try {
				listener(event);
			} catch (error) {
				this.reportListenerError(error);
			}
		}
	}

	clear(): void {
		this.listeners.clear();
		this.snapshot = [];
	}
}
