import type { AssistantMessage, ToolCall, ToolResultMessage } from "@tau/ai";
import { getDefaultStreamFn } from "../stream-fn/default-stream-fn.js";
import { batchExecutionStyle, executeToolCalls, failTruncatedToolCalls } from "../tools/batch.js";
import type { ToolPipeline } from "../tools/pipeline.js";
import type { AgentLoopConfig, StreamFn } from "../types/config.js";
import type { AgentContext } from "../types/context.js";
import type { AgentEventSink } from "../types/events.js";
import type { AgentLoopTurnUpdate, AgentTurnContext } from "../types/hooks.js";
import type { AgentMessage } from "../types/messages.js";
import { declareToolChanges } from "./declare-tool-changes.js";
import { streamAssistantResponse } from "./stream-assistant-response.js";

/** Runs a prompt to completion, awaiting `emit` for every event; resolves with the run's new messages. */
export async function runAgentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal: AbortSignal | undefined,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	const stream = streamFn ?? getDefaultStreamFn();
	const initialMessages = declareToolChanges(context, prompts);
	const newMessages = [...initialMessages];
	// The caller's array is never mutated.
	const working: AgentContext = { ...context, messages: [...context.messages, ...initialMessages] };
	await emit({ type: "agent_start" });
	await emit({ type: "turn_start" });
	for (const message of initialMessages) {
		await emit({ type: "message_start", message });
		await emit({ type: "message_end", message });
	}
	await runLoop(working, config, newMessages, emit, signal, stream);
	return newMessages;
}

/** Resumes from the transcript as it is (no prompt). The context's `messages` array is used in place. */
export async function runAgentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal: AbortSignal | undefined,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	assertContinuable(context);
	const stream = streamFn ?? getDefaultStreamFn();
	const newMessages: AgentMessage[] = [];
	await emit({ type: "agent_start" });
	await emit({ type: "turn_start" });
	await runLoop({ ...context }, config, newMessages, emit, signal, stream);
	return newMessages;
}

export function assertContinuable(context: AgentContext): void {
	const last = context.messages.at(-1);
	if (!last) throw new Error("Cannot continue: no messages in context");
	if (last.role === "assistant") throw new Error("Cannot continue from message role: assistant");
}

/**
 * The double loop. Inner: one turn per request while tool results or steering demand another request.
 * Outer: follow-ups (or one explicit `finishTurn` continuation) restart the inner loop in the same run.
 */
async function runLoop(
	initialContext: AgentContext,
	initialConfig: AgentLoopConfig,
	newMessages: AgentMessage[],
	emit: AgentEventSink,
	signal: AbortSignal | undefined,
	streamFn: StreamFn,
): Promise<void> {
	let context = initialContext;
	let config = { ...initialConfig };
	let lastCompletedTurn: AgentTurnContext | undefined;
	let explicitContinuation = false;
	// Input typed while the agent was idle or waiting.
	let pending: AgentMessage[] = (await config.getSteeringMessages?.()) ?? [];

	for (;;) {
		let hasMoreToolCalls = true;
		while (hasMoreToolCalls || pending.length > 0) {
			let prepared: AgentMessage[] = [];
			if (lastCompletedTurn) {
				const turnUpdate = await config.prepareNextTurn?.(lastCompletedTurn);
				if (turnUpdate) {
					context = turnUpdate.context ?? context;
					prepared = turnUpdate.messages ?? [];
					config = withModelUpdate(config, turnUpdate);
				}
				// Preparation may be slow (compaction): pick up steering typed meanwhile.
				if (pending.length === 0) pending = (await config.getSteeringMessages?.()) ?? [];
				await emit({ type: "turn_start" });
			}

			for (const message of declareToolChanges(context, [...prepared, ...pending])) {
				await emit({ type: "message_start", message });
				await emit({ type: "message_end", message });
				context.messages.push(message);
				newMessages.push(message);
			}
			pending = [];

			const requestUpdate = await config.prepareRequest?.(
				{ context, model: config.model, thinkingLevel: config.reasoning ?? "off" },
				signal,
			);
			if (requestUpdate) {
				context = requestUpdate.context ?? context;
				config = withModelUpdate(config, requestUpdate);
			}

			const message = await streamAssistantResponse(context, config, signal, emit, streamFn);
			newMessages.push(message);

			if (message.stopReason === "error" || message.stopReason === "aborted") {
				// Hard exit: finishTurn still observes the turn, but its decision and the queues are ignored.
				lastCompletedTurn = { message, toolResults: [], context, newMessages };
				await config.finishTurn?.(lastCompletedTurn, signal);
				await emit({ type: "turn_end", message, toolResults: [] });
				await emit({ type: "agent_end", messages: newMessages });
				return;
			}

			const toolCalls = message.content.filter((block): block is ToolCall => block.type === "toolCall");
			let toolResults: ToolResultMessage[] = [];
			hasMoreToolCalls = false;
			if (toolCalls.length > 0) {
				const batch =
					message.stopReason === "length"
						? await failTruncatedToolCalls(toolCalls, emit)
						: await runToolBatch(toolCalls, message, context, config, signal, emit);
				toolResults = batch.messages;
				hasMoreToolCalls = !batch.terminate;
				for (const result of toolResults) {
					context.messages.push(result);
					newMessages.push(result);
				}
			}

			lastCompletedTurn = { message, toolResults, context, newMessages };
			const decision = await config.finishTurn?.(lastCompletedTurn, signal);
			await emit({ type: "turn_end", message, toolResults });
			if (decision?.action === "end") {
				await emit({ type: "agent_end", messages: newMessages });
				return;
			}
			explicitContinuation = decision?.action === "continue";
			// Steering is injected only after every call of this assistant message has a result.
			pending = (await config.getSteeringMessages?.()) ?? [];
			// A natural request follows anyway, so the explicit continuation is already satisfied.
			if (hasMoreToolCalls || pending.length > 0) explicitContinuation = false;
		}

		// The agent would stop here.
		const followUps = (await config.getFollowUpMessages?.()) ?? [];
		if (followUps.length > 0) {
			explicitContinuation = false;
			pending = followUps;
			continue;
		}
		if (explicitContinuation) {
			// Exactly one context-only request.
			explicitContinuation = false;
			continue;
		}
		break;
	}
	await emit({ type: "agent_end", messages: newMessages });
}

function runToolBatch(
	toolCalls: ToolCall[],
	assistantMessage: AssistantMessage,
	context: AgentContext,
	config: AgentLoopConfig,
	signal: AbortSignal | undefined,
	emit: AgentEventSink,
) {
	const pipeline: ToolPipeline = {
		tools: context.tools ?? [],
		assistantMessage,
		context,
		signal,
		beforeToolCall: config.beforeToolCall,
		afterToolCall: config.afterToolCall,
	};
	return executeToolCalls(toolCalls, pipeline, batchExecutionStyle(toolCalls, pipeline, config.toolExecution), emit);
}

/** Hooks may switch model and thinking level for this and later requests; `"off"` clears `reasoning`. */
function withModelUpdate(config: AgentLoopConfig, update: Omit<AgentLoopTurnUpdate, "messages">): AgentLoopConfig {
	const next = { ...config };
	if (update.model) next.model = update.model;
	if (update.thinkingLevel) next.reasoning = update.thinkingLevel === "off" ? undefined : update.thinkingLevel;
	return next;
}
