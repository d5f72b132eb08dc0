import { EventStream } from "@tau/ai";
import { errorMessage } from "../error-message.js";
import type { AgentLoopConfig, StreamFn } from "../types/config.js";
import type { AgentContext } from "../types/context.js";
import type { AgentEvent, AgentEventSink } from "../types/events.js";
import type { AgentMessage } from "../types/messages.js";
import { assertContinuable, runAgentLoop, runAgentLoopContinue } from "./agent-loop.js";
import { createFailureMessage, failureSequence } from "./failure.js";

/** The stream `agentLoop` returns: every `AgentEvent` of the run, ending with the messages the run created. */
export type AgentEventStream = EventStream<AgentEvent, AgentMessage[]>;

/** Observational form of `runAgentLoop`: events are pushed without waiting for the consumer. */
export function agentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	signal: AbortSignal | undefined,
	streamFn?: StreamFn,
): AgentEventStream {
	return observe(config, signal, (emit) => runAgentLoop(prompts, context, config, emit, signal, streamFn));
}

/** Observational form of `runAgentLoopContinue`; an unusable context throws synchronously. */
export function agentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	signal: AbortSignal | undefined,
	streamFn?: StreamFn,
): AgentEventStream {
	assertContinuable(context);
	return observe(config, signal, (emit) => runAgentLoopContinue(context, config, emit, signal, streamFn));
}

function observe(
	config: AgentLoopConfig,
	signal: AbortSignal | undefined,
	run: (emit: AgentEventSink) => Promise<AgentMessage[]>,
): AgentEventStream {
	const stream: AgentEventStream = new EventStream(
		(event) => event.type === "agent_end",
		(event) => (event.type === "agent_end" ? event.messages : []),
	);
	run((event) => stream.push(event)).catch((error: unknown) => {
		// A rejected run still ends the stream, so consumers never hang.
		const failure = createFailureMessage(config.model, errorMessage(error), signal?.aborted === true);
		for (const event of failureSequence(failure)) stream.push(event);
	});
	return stream;
}
