import type { Agent, AgentMessage } from "@tau/agent";
import type { AssistantMessage } from "@tau/ai";
import type { ExtensionRunner } from "../extensions/index.js";
import type { AgentSessionEvent } from "./events.js";
import type { ExtensionBridge } from "./extension-bridge.js";
import type { OverflowRecovery, RetryPolicy } from "./recovery-loop.js";

/** Mutable run state shared by the session and its post-run loop. */
export interface RunState {
	/** From run start until `agent_settled` (includes retries, compaction and continuations). */
	running: boolean;
	abortRequested: boolean;
	/** `agent_settled` handlers are being dispatched: new prompts are deferred. */
	settling: boolean;
	/** The last assistant message of the current low-level run. */
	lastAssistant: AssistantMessage | undefined;
	/** A failed response about to be retried: virtual-model routers see it (reason `retry`). */
	failedResponse: AssistantMessage | undefined;
	/**
	 * Why a message of this run could not be saved (a full disk): the run is stopped, nothing more is
	 * written, and the prompt fails with this error once the run has settled.
	 */
	persistenceError?: Error;
}

export interface PostRunHost {
	readonly agent: Agent;
	readonly state: RunState;
	readonly retry: RetryPolicy;
	readonly overflow: OverflowRecovery;
	readonly bridge: ExtensionBridge;
	runner(): ExtensionRunner;
	emit(event: AgentSessionEvent): void;
	refreshContext(): void;
	/** Clears run-level prompt options and flushes messages held during the run. */
	endRun(): void;
}

/**
 * The post-run recovery loop (docs/design/session-runtime.md#recovery): after the low-level run, retry / compact-and-retry / queued
 * messages start another run; then `agent_before_settle` may continue; finally `agent_settled`.
 */
export async function runToSettled(host: PostRunHost, messages: AgentMessage[]): Promise<void> {
	const { agent, state } = host;
	try {
		state.lastAssistant = undefined;
		await agent.prompt(messages);
		while (!state.abortRequested) {
			const finished = state.lastAssistant;
			if (await handlePostAgentRun(host)) {
				if (state.abortRequested) break;
				await continueAgent(host);
				continue;
			}
			if (state.abortRequested) break;
			const proceed = (await host.bridge.beforeSettle(outcomeOf(finished))) || agent.hasQueuedMessages();
			if (!proceed || state.abortRequested) break;
			await continueAgent(host);
		}
	} finally {
		if (state.abortRequested) host.retry.finishCancelled();
		state.failedResponse = undefined;
		host.endRun();
		const aborted = state.abortRequested;
		state.running = false;
		await settle(host, aborted);
	}
}

function outcomeOf(message: AssistantMessage | undefined): "completed" | "aborted" | "error" {
	const stop = message?.stopReason;
	return stop === "aborted" ? "aborted" : stop === "error" ? "error" : "completed";
}

async function continueAgent(host: PostRunHost): Promise<void> {
	host.state.lastAssistant = undefined;
	host.refreshContext();
	await host.agent.continue();
}

/** Retry, overflow recovery, threshold compaction, or queued messages: whether to run again. */
async function handlePostAgentRun(host: PostRunHost): Promise<boolean> {
	const { state, retry, agent } = host;
	const message = state.lastAssistant;
	state.lastAssistant = undefined;
	if (!message) return agent.hasQueuedMessages();
	if (message.stopReason === "aborted") {
		retry.finishCancelled();
		return false;
	}
	if (retry.isRetryable(message)) {
		if (await retry.prepareRetry(message)) {
			state.failedResponse = message;
			return true;
		}
		if (state.abortRequested) return false;
	}
	if (message.stopReason === "error") retry.failed(message.errorMessage || "Unknown error");
	if (await host.overflow.check(message, true)) {
		if (message.stopReason === "error" || message.stopReason === "length") state.failedResponse = message;
		return true;
	}
	return agent.hasQueuedMessages();
}

/** `agent_settled` to extensions (awaited), then to subscribers. */
async function settle(host: PostRunHost, aborted: boolean): Promise<void> {
	host.state.settling = true;
	try {
		await host.runner().emit({ type: "agent_settled", aborted });
		host.emit({ type: "agent_settled", aborted });
	} finally {
		host.state.settling = false;
	}
}
