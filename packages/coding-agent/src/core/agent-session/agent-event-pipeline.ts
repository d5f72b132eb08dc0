import type { Agent, AgentEvent, AgentMessage } from "@tau/agent";
import type { AssistantMessage } from "@tau/ai";
import { toError } from "../errors.js";
import type { NestedToolCallExecutor } from "../extensions/index.js";
import type { AgentSessionEvent, SessionEventHub } from "./events.js";
import type { ExtensionBridge } from "./extension-bridge.js";
import type { MessageQueues } from "./message-queues.js";
import type { SessionPersistence } from "./persistence.js";
import type { OverflowRecovery, RetryPolicy } from "./recovery-loop.js";
import type { RunState } from "./run-loop.js";

export interface AgentEventHost {
	readonly agent: Agent;
	readonly run: RunState;
	readonly overflow: OverflowRecovery;
	readonly retry: RetryPolicy;
	readonly queues: MessageQueues;
	readonly nested: NestedToolCallExecutor;
	readonly bridge: ExtensionBridge;
	readonly persistence: SessionPersistence;
	readonly hub: SessionEventHub;
	/** The assistant message whose tool calls run next (nested calls report against it). */
	setCurrentAssistant(message: AssistantMessage): void;
	/** Custom messages held during the turn, appended once its tool results are in. */
	flushPendingCustom(): void;
	/** Images of a delivered user message, normalized with the current limits model. */
	normalizeImages(message: Extract<AgentEvent, { type: "message_start" }>["message"]): void;
}

/**
 * The session's awaited agent listener (docs/design/session-runtime.md#event-handling), a barrier for the loop: bookkeeping, extension dispatch,
 * persistence at `message_end`, then public listeners (so they can rely on the entry existing).
 * Returns a promise only while an extension handler runs, so an unhandled streaming delta is handled
 * synchronously.
 */
export function handleAgentEvent(host: AgentEventHost, event: AgentEvent): Promise<void> | undefined {
	const { run } = host;
	if (event.type === "agent_start" && run.abortRequested) host.agent.abort();
	if (event.type === "message_start" && event.message.role === "user") {
		host.overflow.reset();
		host.queues.delivered(event.message);
		host.normalizeImages(event.message);
	}
	if (event.type === "message_start" && event.message.role === "toolResult") {
		// The nested-call record and usage belong to the result before anything persists it.
		Object.assign(event.message, host.nested.rootResult(event.message.toolCallId, event.message.usage));
	}
	const dispatched = host.bridge.dispatch(event);
	if (dispatched) return dispatched.then(() => afterDispatch(host, event));
	afterDispatch(host, event);
	return undefined;
}

function afterDispatch(host: AgentEventHost, event: AgentEvent): void {
	const { run } = host;
	if (event.type === "message_end") {
		persistOrStop(host, event.message);
		if (event.message.role === "assistant") afterAssistant(host, event.message);
	}
	if (event.type === "agent_end") {
		const willRetry = host.retry.willRetry(run.lastAssistant, run.abortRequested);
		host.hub.emit({ type: "agent_end", messages: event.messages, willRetry });
	} else {
		host.hub.emit(event as AgentSessionEvent);
	}
	// Retries count consecutive failures: a completed response ends the sequence, and listeners see
	// `auto_retry_end` after that response's `message_end` (Pi's order).
	if (event.type === "message_end" && event.message.role === "assistant") {
		const stop = event.message.stopReason;
		if (stop !== "error" && stop !== "aborted") host.retry.succeeded();
	}
	if (event.type === "turn_end") host.flushPendingCustom();
	if (event.type === "agent_end") host.nested.clear();
}

/**
 * The session file is the source of truth: a message that cannot be written (a full disk) stops the
 * run at once instead of continuing with a history the file does not have. The writer has already
 * cut back any partial line, so the file stays valid; the error ends the prompt after settling.
 */
function persistOrStop(host: AgentEventHost, message: AgentMessage): void {
	const { run } = host;
	if (run.persistenceError) return;
	try {
		host.persistence.persistMessage(message);
	} catch (error) {
		run.persistenceError = toError(error);
		run.abortRequested = true;
		host.agent.abort();
	}
}

function afterAssistant(host: AgentEventHost, message: AssistantMessage): void {
	host.run.lastAssistant = message;
	host.setCurrentAssistant(message);
	if (message.stopReason !== "error" && message.stopReason !== "length") host.overflow.reset();
}
