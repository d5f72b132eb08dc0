import {
	type ClientIdentity,
	getCurrentSystemMessage,
	type ImageContent,
	type Message,
	type SimpleStreamOptions,
	type ThinkingBudgets,
	type Transport,
} from "@tau/ai";
import { MutableAgentState } from "./agent-state.js";
import { errorMessage } from "./error-message.js";
import { runAgentLoop, runAgentLoopContinue } from "./loop/agent-loop.js";
import { createFailureMessage, failureSequence } from "./loop/failure.js";
import { PendingMessageQueue } from "./pending-message-queue.js";
import { getDefaultStreamFn } from "./stream-fn/default-stream-fn.js";
import type { AgentLoopConfig, StreamFn } from "./types/config.js";
import type { AgentContext } from "./types/context.js";
import type { AgentEvent } from "./types/events.js";
import type { FinishTurn, PrepareRequest } from "./types/hooks.js";
import type { AgentMessage, QueueMode } from "./types/messages.js";
import type { AgentListener, AgentOptions, AgentState } from "./types/state.js";
import type { ToolExecutionMode } from "./types/tools.js";

const LLM_ROLES: ReadonlySet<string> = new Set(["system", "user", "assistant", "toolResult"]);

/** Keeps the four LLM roles; custom transcript roles never reach a provider unless converted. */
function keepLlmMessages(messages: AgentMessage[]): Message[] {
	return messages.filter((message) => LLM_ROLES.has(message.role));
}

interface ActiveRun {
	promise: Promise<void>;
	resolve: () => void;
	abortController: AbortController;
}

/**
 * Stateful wrapper around the loop: owns the transcript, the queues and the run lifecycle. State changes
 * only through event reduction; listeners are awaited in order for every event (they are barriers).
 */
export class Agent {
	streamFunction: StreamFn;
	convertToLlm: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
	transformContext: AgentOptions["transformContext"];
	getApiKey: AgentOptions["getApiKey"];
	onPayload: SimpleStreamOptions["onPayload"];
	onResponse: SimpleStreamOptions["onResponse"];
	onProviderStreamEvent: SimpleStreamOptions["onProviderStreamEvent"];
	beforeToolCall: AgentLoopConfig["beforeToolCall"];
	afterToolCall: AgentLoopConfig["afterToolCall"];
	finishTurn: FinishTurn | undefined;
	prepareRequest: PrepareRequest | undefined;
	prepareNextTurn: AgentOptions["prepareNextTurn"];
	prepareNextTurnWithContext: AgentOptions["prepareNextTurnWithContext"];
	sessionId: string | undefined;
	thinkingBudgets: ThinkingBudgets | undefined;
	transport: Transport;
	maxRetryDelayMs: number | undefined;
	toolExecution: ToolExecutionMode;
	identity: ClientIdentity | undefined;

	readonly #state: MutableAgentState;
	readonly #listeners = new Set<AgentListener>();
	/** `#listeners` as an array, replaced on every change, so an event (one per streamed token) copies nothing. */
	#listenerSnapshot: readonly AgentListener[] = [];
	readonly #steeringQueue: PendingMessageQueue;
	readonly #followUpQueue: PendingMessageQueue;
	#activeRun: ActiveRun | undefined;

	constructor(options: AgentOptions = {}) {
		this.streamFunction = options.streamFn ?? getDefaultStreamFn();
		this.#state = new MutableAgentState(options.initialState);
		this.convertToLlm = options.convertToLlm ?? keepLlmMessages;
		this.transformContext = options.transformContext;
		this.getApiKey = options.getApiKey;
		this.onPayload = options.onPayload;
		this.onResponse = options.onResponse;
		this.onProviderStreamEvent = options.onProviderStreamEvent;
		this.beforeToolCall = options.beforeToolCall;
		this.afterToolCall = options.afterToolCall;
		this.finishTurn = options.finishTurn;
		this.prepareRequest = options.prepareRequest;
		this.prepareNextTurn = options.prepareNextTurn;
		this.prepareNextTurnWithContext = options.prepareNextTurnWithContext;
		this.sessionId = options.sessionId;
		this.thinkingBudgets = options.thinkingBudgets;
		this.transport = options.transport ?? "auto";
		this.maxRetryDelayMs = options.maxRetryDelayMs;
		this.toolExecution = options.toolExecution ?? "parallel";
		this.identity = options.identity;
		this.#steeringQueue = new PendingMessageQueue(options.steeringMode ?? "one-at-a-time");
		this.#followUpQueue = new PendingMessageQueue(options.followUpMode ?? "one-at-a-time");
	}

	get state(): AgentState {
		return this.#state;
	}

	get steeringMode(): QueueMode {
		return this.#steeringQueue.mode;
	}

	set steeringMode(mode: QueueMode) {
		this.#steeringQueue.mode = mode;
	}

	get followUpMode(): QueueMode {
		return this.#followUpQueue.mode;
	}

	set followUpMode(mode: QueueMode) {
		this.#followUpQueue.mode = mode;
	}

	/** The active run's signal, or `undefined` while idle. */
	get signal(): AbortSignal | undefined {
		return this.#activeRun?.abortController.signal;
	}

	subscribe(listener: AgentListener): () => void {
		this.#listeners.add(listener);
		this.#listenerSnapshot = [...this.#listeners];
		return () => {
			if (this.#listeners.delete(listener)) this.#listenerSnapshot = [...this.#listeners];
		};
	}

	/** Queues a message for the next injection point (after the current tool batch). */
	steer(message: AgentMessage): void {
		this.#steeringQueue.enqueue(message);
	}

	/** Queues a message for when the agent would otherwise stop. */
	followUp(message: AgentMessage): void {
		this.#followUpQueue.enqueue(message);
	}

	clearSteeringQueue(): void {
		this.#steeringQueue.clear();
	}

	clearFollowUpQueue(): void {
		this.#followUpQueue.clear();
	}

	clearAllQueues(): void {
		this.clearSteeringQueue();
		this.clearFollowUpQueue();
	}

	hasQueuedMessages(): boolean {
		return this.#steeringQueue.hasItems() || this.#followUpQueue.hasItems();
	}

	/** What the next injection point would deliver, without consuming it. */
	peekQueuedMessages(): AgentMessage[] {
		return this.#steeringQueue.hasItems() ? this.#steeringQueue.peek() : this.#followUpQueue.peek();
	}

	prompt(message: AgentMessage | AgentMessage[]): Promise<void>;
	prompt(text: string, images?: ImageContent[]): Promise<void>;
	async prompt(input: string | AgentMessage | AgentMessage[], images: ImageContent[] = []): Promise<void> {
		if (this.#activeRun) {
			throw new Error(
				"Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.",
			);
		}
		const messages: AgentMessage[] =
			typeof input === "string"
				? [{ role: "user", content: [{ type: "text", text: input }, ...images], timestamp: Date.now() }]
				: Array.isArray(input)
					? input
					: [input];
		return this.#runPrompt(messages, false);
	}

	async continue(): Promise<void> {
		if (this.#activeRun) throw new Error("Agent is already processing. Wait for completion before continuing.");
		const transcript = this.#state.messages;
		if (!transcript.some((message) => message.role !== "system")) throw new Error("No messages to continue from");
		if (transcript.at(-1)?.role === "assistant") {
			const steering = this.#steeringQueue.drain();
			// The batch was just drained, so the run's own initial poll is skipped: one-at-a-time stays one.
			if (steering.length > 0) return this.#runPrompt(steering, true);
			const followUps = this.#followUpQueue.drain();
			if (followUps.length > 0) return this.#runPrompt(followUps, false);
			throw new Error("Cannot continue from message role: assistant");
		}
		return this.#runWithLifecycle(async (signal) => {
			await runAgentLoopContinue(
				this.#createContextSnapshot(),
				this.#createLoopConfig(signal, false),
				(event) => this.#processEvents(event),
				signal,
				this.streamFunction,
			);
		});
	}

	/** Cooperative: signals the active run and returns; queues are left alone. */
	abort(): void {
		this.#activeRun?.abortController.abort();
	}

	/** Resolves when the active run (including `agent_end` listeners) has settled; immediately when idle. */
	waitForIdle(): Promise<void> {
		return this.#activeRun?.promise ?? Promise.resolve();
	}

	/** Keeps only the replayed system baseline and clears run state and queues. */
	reset(): void {
		if (this.#activeRun) throw new Error("Agent is already processing. Wait for completion before resetting.");
		const baseline = getCurrentSystemMessage(this.#state.messages);
		this.#state.messages = baseline ? [baseline] : [];
		this.#state.streamingMessage = undefined;
		this.#state.pendingToolCalls = new Set();
		this.#state.errorMessage = undefined;
		this.#state.isStreaming = false;
		this.clearAllQueues();
	}

	#runPrompt(messages: AgentMessage[], skipInitialSteeringPoll: boolean): Promise<void> {
		return this.#runWithLifecycle(async (signal) => {
			await runAgentLoop(
				messages,
				this.#createContextSnapshot(),
				this.#createLoopConfig(signal, skipInitialSteeringPoll),
				(event) => this.#processEvents(event),
				signal,
				this.streamFunction,
			);
		});
	}

	async #runWithLifecycle(executor: (signal: AbortSignal) => Promise<void>): Promise<void> {
		if (this.#activeRun) throw new Error("Agent is already processing.");
		// Everything up to the first await runs synchronously, so a second call in the same tick is rejected.
		const abortController = new AbortController();
		let resolve = () => {};
		const promise = new Promise<void>((done) => {
			resolve = done;
		});
		this.#activeRun = { promise, resolve, abortController };
		this.#state.isStreaming = true;
		this.#state.streamingMessage = undefined;
		this.#state.errorMessage = undefined;
		try {
			try {
				await executor(abortController.signal);
			} catch (error) {
				await this.#handleRunFailure(error, abortController.signal.aborted);
			}
		} finally {
			this.#finishRun();
		}
	}

	#finishRun(): void {
		this.#state.isStreaming = false;
		this.#state.streamingMessage = undefined;
		this.#state.pendingToolCalls = new Set();
		this.#activeRun?.resolve();
		this.#activeRun = undefined;
	}

	/** Ends a rejected run with a well-formed failure sequence; a listener failing again propagates. */
	async #handleRunFailure(error: unknown, aborted: boolean): Promise<void> {
		const failure = createFailureMessage(this.#state.model, errorMessage(error), aborted);
		for (const event of failureSequence(failure)) await this.#processEvents(event);
	}

	/** The sink: reduce state first, then await every listener in registration order. */
	/**
	 * Reduces the event into state, then calls the listeners in order, awaiting only those that return a
	 * promise: an event every listener handled synchronously returns `undefined`, so a streaming delta
	 * costs no promise (docs/agent.md).
	 */
	#processEvents(event: AgentEvent): Promise<void> | undefined {
		const run = this.#activeRun;
		if (!run) throw new Error("Agent listener invoked outside active run");
		this.#reduce(event);
		const listeners = this.#listenerSnapshot;
		const signal = run.abortController.signal;
		for (let index = 0; index < listeners.length; index++) {
			const pending = listeners[index]!(event, signal);
			if (pending) return this.#finishListeners(pending, listeners.slice(index + 1), event, signal);
		}
		return undefined;
	}

	async #finishListeners(
		pending: Promise<void>,
		rest: readonly AgentListener[],
		event: AgentEvent,
		signal: AbortSignal,
	): Promise<void> {
		await pending;
		for (const listener of rest) {
			const next = listener(event, signal);
			if (next) await next;
		}
	}

	#reduce(event: AgentEvent): void {
		const state = this.#state;
		switch (event.type) {
			case "message_start":
			case "message_update":
				state.streamingMessage = event.message;
				break;
			case "message_end":
				state.streamingMessage = undefined;
				state.messages.push(event.message);
				break;
			case "tool_execution_start":
				state.pendingToolCalls = new Set([...state.pendingToolCalls, event.toolCallId]);
				break;
			case "tool_execution_end": {
				const pending = new Set(state.pendingToolCalls);
				pending.delete(event.toolCallId);
				state.pendingToolCalls = pending;
				break;
			}
			case "turn_end":
				if (event.message.role === "assistant" && event.message.errorMessage) {
					state.errorMessage = event.message.errorMessage;
				}
				break;
			case "agent_end":
				state.streamingMessage = undefined;
				break;
		}
	}

	#createContextSnapshot(): AgentContext {
		return { messages: this.#state.messages.slice(), tools: this.#state.tools.slice() };
	}

	/** Captures the configuration at run start; mid-run changes go through the loop hooks. */
	#createLoopConfig(signal: AbortSignal, skipInitialSteeringPoll: boolean): AgentLoopConfig {
		const { prepareNextTurn, prepareNextTurnWithContext } = this;
		let skipSteeringPoll = skipInitialSteeringPoll;
		return {
			model: this.#state.model,
			reasoning: this.#state.thinkingLevel === "off" ? undefined : this.#state.thinkingLevel,
			sessionId: this.sessionId,
			onPayload: this.onPayload,
			onResponse: this.onResponse,
			onProviderStreamEvent: this.onProviderStreamEvent,
			transport: this.transport,
			thinkingBudgets: this.thinkingBudgets,
			maxRetryDelayMs: this.maxRetryDelayMs,
			identity: this.identity,
			toolExecution: this.toolExecution,
			beforeToolCall: this.beforeToolCall,
			afterToolCall: this.afterToolCall,
			finishTurn: this.finishTurn,
			prepareRequest: this.prepareRequest,
			convertToLlm: this.convertToLlm,
			transformContext: this.transformContext,
			getApiKey: this.getApiKey,
			prepareNextTurn: prepareNextTurnWithContext
				? (context) => prepareNextTurnWithContext(context, signal)
				: prepareNextTurn
					? () => prepareNextTurn(signal)
					: undefined,
			getSteeringMessages: async () => {
				if (skipSteeringPoll) {
					skipSteeringPoll = false;
					return [];
				}
				return this.#steeringQueue.drain();
			},
			getFollowUpMessages: async () => this.#followUpQueue.drain(),
		};
	}
}
