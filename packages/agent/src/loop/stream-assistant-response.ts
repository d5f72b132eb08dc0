import {
	type AssistantMessage,
	type AssistantMessageEvent,
	type AssistantMessageEventStream,
	EventStream,
	mergeClientIdentity,
	normalizeContext,
	type SimpleStreamOptions,
} from "@tau/ai";
import { DEFAULT_AGENT_IDENTITY } from "../stream-fn/identity.js";
import type { AgentLoopConfig, StreamFn } from "../types/config.js";
import type { AgentContext } from "../types/context.js";
import type { AgentEventSink } from "../types/events.js";
import { createFailureMessage } from "./failure.js";
import { OrderedEmitter } from "./ordered-emitter.js";

/**
 * One provider request: assembles the per-request view (transform → convert → normalize → key), then
 * mirrors the stream into the working context and the event sink. Tools never run here.
 */
export async function streamAssistantResponse(
	context: AgentContext,
	config: AgentLoopConfig,
	signal: AbortSignal | undefined,
	emit: AgentEventSink,
	streamFn: StreamFn,
): Promise<AssistantMessage> {
	let messages = context.messages;
	if (config.transformContext) messages = await config.transformContext(messages, signal);
	const llmMessages = await config.convertToLlm(messages);
	const llmContext = normalizeContext({ messages: llmMessages });
	// Resolved per request so short-lived tokens stay fresh.
	const apiKey = (config.getApiKey ? await config.getApiKey(config.model.provider) : undefined) || config.apiKey;
	const stream = await streamFn(config.model, llmContext, {
		...requestOptions(config),
		apiKey,
		identity: mergeClientIdentity(DEFAULT_AGENT_IDENTITY, config.identity),
		signal,
	});

	// Each event is mirrored as it arrives (its message snapshot taken then, so a later delta cannot show
	// through it); emission is awaited only while a listener is busy (docs/agent.md, "Streaming cost").
	const emitter = new OrderedEmitter(emit);
	let started = false;
	const receive = (event: AssistantMessageEvent): Promise<void> | undefined => {
		if (event.type === "start") {
			started = true;
			context.messages.push(event.partial);
			return emitter.emit({ type: "message_start", message: { ...event.partial } });
		}
		if (event.type === "done" || event.type === "error" || !started) return undefined;
		context.messages[context.messages.length - 1] = event.partial;
		return emitter.emit({ type: "message_update", message: { ...event.partial }, assistantMessageEvent: event });
	};
	// A busy listener holds the provider's next network read back (EventStream.ready).
	if (stream instanceof EventStream) await stream.forward(receive);
	else {
		for await (const event of stream as AsyncIterable<AssistantMessageEvent>) {
			receive(event);
			if (event.type === "done" || event.type === "error") break;
			await emitter.settled();
		}
	}
	await emitter.settled();

	const final =
		(await settledResult(stream)) ??
		createFailureMessage(config.model, "Stream ended without a result", signal?.aborted === true, []);
	final.thinkingLevel = config.reasoning ?? "off";
	if (started) {
		context.messages[context.messages.length - 1] = final;
	} else {
		context.messages.push(final);
		await emit({ type: "message_start", message: { ...final } });
	}
	await emit({ type: "message_end", message: final });
	return final;
}

/**
 * The stream's result once iteration has stopped. A terminal event or `end(result)` resolves it before
 * consumers are released, so a result that is still pending after a few microtasks never will be.
 */
async function settledResult(stream: AssistantMessageEventStream): Promise<AssistantMessage | undefined> {
	let result: AssistantMessage | undefined;
	void stream.result().then((message) => {
		result = message;
	});
	for (let hop = 0; hop < 4 && result === undefined; hop++) await Promise.resolve();
	return result;
}

/** Strips the loop's own hooks so only request options reach the stream function. */
function requestOptions(config: AgentLoopConfig): SimpleStreamOptions {
	const {
		model: _model,
		convertToLlm: _convertToLlm,
		transformContext: _transformContext,
		getApiKey: _getApiKey,
		finishTurn: _finishTurn,
		prepareRequest: _prepareRequest,
		prepareNextTurn: _prepareNextTurn,
		getSteeringMessages: _getSteeringMessages,
		getFollowUpMessages: _getFollowUpMessages,
		toolExecution: _toolExecution,
		beforeToolCall: _beforeToolCall,
		afterToolCall: _afterToolCall,
		...options
	} = config;
	return options;
}
