import { AssistantMessageEventStream } from "../stream/assistant-message-event-stream.js";
import { errorEvent, failedAssistantMessage } from "../stream/failure.js";
import type { TranscriptContext } from "../types/context.js";
import type { AssistantMessage, DeferredHandle } from "../types/messages.js";
import type { Api, Model, ModelCost, ModelInputLimits } from "../types/model.js";
import type { SimpleStreamOptions } from "../types/options.js";
import type { DeferredRequestOptions, ProviderStreams } from "../types/provider.js";
import { zeroUsage } from "../types/usage.js";
import { ABORTED_MESSAGE, type FauxPacing, streamScriptedReply } from "./faux-stream.js";
import { fauxPromptText, fauxUsage } from "./faux-usage.js";

/** Counters the faux provider keeps: requests made, deferred fetches and cancelled deferred requests. */
export interface FauxProviderState {
	/** Every request, counted at request start, including failed ones. */
	callCount: number;
	deferredFetchCount: number;
	cancelledDeferred: DeferredHandle[];
}

/** Builds a faux answer from the request (context, options, state and model), for answers that depend on the prompt. */
export type FauxResponseFactory = (
	context: TranscriptContext,
	options: SimpleStreamOptions | undefined,
	state: FauxProviderState,
	model: Model<string>,
) => AssistantMessage | Promise<AssistantMessage>;

/** One queued faux answer: a fixed assistant message or a factory that builds it per request. */
export type FauxResponseStep = AssistantMessage | FauxResponseFactory;

/** A model the faux provider serves: id, name, reasoning, input kinds and limits. */
export interface FauxModelDefinition {
	id: string;
	name?: string;
	reasoning?: boolean;
	input?: ("text" | "image")[];
	inputLimits?: ModelInputLimits;
	cost?: ModelCost;
	contextWindow?: number;
	maxTokens?: number;
}

/** Options of `registerFauxProvider`: API and provider ids, the models served, deferred requests and streaming pace. */
export interface FauxProviderOptions {
	/** Default: a unique id per handle. */
	api?: string;
	/** Default "faux". */
	provider?: string;
	models?: FauxModelDefinition[];
	deferred?: { pendingFetches?: number; pollAfterMs?: number };
	/** Pacing; absent/0 means one chunk per microtask. */
	tokensPerSecond?: number;
	/** Tokens per chunk (1 token = 4 chars); default 3..5. */
	tokenSize?: { min?: number; max?: number };
}

/** pi's name for the options of a faux provider. */
export type RegisterFauxProviderOptions = FauxProviderOptions;

/** The scripted API of a faux provider, without a `Provider` around it (`registerFauxProvider` registers it). */
export interface FauxCore extends Required<ProviderStreams> {
	api: string;
	/** The provider id stamped on replies. */
	provider: string;
	models: [Model<string>, ...Model<string>[]];
	getModel(): Model<string>;
	getModel(id: string): Model<string> | undefined;
	state: FauxProviderState;
	/** Replaces the remaining queue. */
	setResponses(steps: FauxResponseStep[]): void;
	appendResponses(steps: FauxResponseStep[]): void;
	getPendingResponseCount(): number;
}

const ZERO_COST: ModelCost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

function buildModel(definition: FauxModelDefinition, api: string, provider: string): Model<string> {
	const model: Model<string> = {
		id: definition.id,
		name: definition.name ?? (definition.id === "faux-1" ? "Faux Model" : definition.id),
		api,
		provider,
		baseUrl: "http://localhost:0",
		reasoning: definition.reasoning ?? false,
		input: definition.input ?? ["text", "image"],
		cost: definition.cost ?? ZERO_COST,
		contextWindow: definition.contextWindow ?? 128000,
		maxTokens: definition.maxTokens ?? 16384,
	};
	if (definition.inputLimits) model.inputLimits = definition.inputLimits;
	return model;
}

/**
 * The scripted API behind a faux provider: each request takes the next queued step (a message or a
 * factory over the request) and streams it through the real event protocol.
 */
export function createFauxCore(options: FauxProviderOptions = {}): FauxCore {
	const api = options.api ?? `faux:${Date.now()}:${Math.random().toString(36).slice(2, 10)}`;
	const providerId = options.provider ?? "faux";
	const definitions = options.models?.length ? options.models : [{ id: "faux-1" }];
	const models = definitions.map((definition) => buildModel(definition, api, providerId)) as [
		Model<string>,
		...Model<string>[],
	];
	const state: FauxProviderState = { callCount: 0, deferredFetchCount: 0, cancelledDeferred: [] };
	let queue: FauxResponseStep[] = [];
	const sessionPrompts = new Map<string, string>();
	const deferredSteps = new Map<
		string,
		{
			step: FauxResponseStep | undefined;
			fetches: number;
			context: TranscriptContext;
			options: SimpleStreamOptions | undefined;
		}
	>();
	const pacingFor = (signal: AbortSignal | undefined): FauxPacing => ({
		...(options.tokensPerSecond !== undefined ? { tokensPerSecond: options.tokensPerSecond } : {}),
		tokenSize: { min: options.tokenSize?.min ?? 3, max: options.tokenSize?.max ?? 5 },
		...(signal ? { signal } : {}),
	});

	/** Resolves a step into the reply to stream: cloned, stamped with this provider and the model asked. */
	const resolveReply = async (
		step: FauxResponseStep | undefined,
		model: Model<Api>,
		context: TranscriptContext,
		requestOptions: SimpleStreamOptions | undefined,
	): Promise<AssistantMessage> => {
		if (!step) throw new Error("No more faux responses queued");
		const scripted = typeof step === "function" ? await step(context, requestOptions, state, model) : step;
		const reply = structuredClone(scripted);
		reply.api = api;
		reply.provider = providerId;
		reply.model = model.id;
		const prompt = fauxPromptText(context.messages);
		const sessionId = requestOptions?.sessionId;
		const cached = sessionId !== undefined && requestOptions?.cacheRetention !== "none";
		reply.usage = fauxUsage(model, prompt, reply, cached ? sessionPrompts.get(sessionId) : undefined, cached);
		if (cached) sessionPrompts.set(sessionId, prompt);
		return reply;
	};

	const respond = (
		model: Model<Api>,
		requestOptions: SimpleStreamOptions | undefined,
		produce: () => Promise<AssistantMessage>,
	): AssistantMessageEventStream => {
		const out = new AssistantMessageEventStream();
		const startedAt = Date.now();
		const signal = requestOptions?.signal;
		void (async () => {
			try {
				await Promise.resolve();
				if (signal?.aborted) throw new Error(ABORTED_MESSAGE);
				await requestOptions?.onResponse?.({ status: 200, headers: {} }, model);
				await streamScriptedReply(out, await produce(), pacingFor(signal));
			} catch (error) {
				const failed = failedAssistantMessage(model, error, signal, startedAt);
				out.push(errorEvent(failed));
				out.end(failed);
			}
		})();
		return out;
	};

	const deferredHandle = (model: Model<Api>): DeferredHandle => {
		const handle: DeferredHandle = {
			provider: providerId,
			modelId: model.id,
			api,
			id: `deferred:${Date.now()}:${Math.random().toString(36).slice(2, 10)}`,
		};
		if (options.deferred?.pollAfterMs !== undefined) handle.pollAfterMs = options.deferred.pollAfterMs;
		return handle;
	};
	const deferredReply = (model: Model<Api>, handle: DeferredHandle): AssistantMessage => ({
		role: "assistant",
		content: [],
		api,
		provider: providerId,
		model: model.id,
		usage: zeroUsage(),
		stopReason: "deferred",
		deferred: handle,
		timestamp: Date.now(),
	});

	const request = (model: Model<Api>, context: TranscriptContext, requestOptions?: SimpleStreamOptions) => {
		state.callCount++;
		const step = queue.shift();
		if (requestOptions?.deferred) {
			const handle = deferredHandle(model);
			deferredSteps.set(handle.id, { step, fetches: 0, context, options: requestOptions });
			return respond(model, requestOptions, async () => deferredReply(model, handle));
		}
		return respond(model, requestOptions, () => resolveReply(step, model, context, requestOptions));
	};

	const streams = {
		stream: request,
		streamSimple: request,
		fetchDeferred(model: Model<Api>, handle: DeferredHandle, fetchOptions?: DeferredRequestOptions) {
			state.deferredFetchCount++;
			const entry = deferredSteps.get(handle.id);
			return respond(model, fetchOptions, async () => {
				if (!entry) throw new Error(`Unknown deferred response: ${handle.id}`);
				if (entry.fetches++ < (options.deferred?.pendingFetches ?? 0)) return deferredReply(model, handle);
				deferredSteps.delete(handle.id);
				return resolveReply(entry.step, model, entry.context, entry.options);
			});
		},
		async cancelDeferred(_model: Model<Api>, handle: DeferredHandle) {
			deferredSteps.delete(handle.id);
			state.cancelledDeferred.push(handle);
		},
	};

	function getModel(): Model<string>;
	function getModel(id: string): Model<string> | undefined;
	function getModel(id?: string): Model<string> | undefined {
		return id === undefined ? models[0] : models.find((model) => model.id === id);
	}
	return {
		...streams,
		provider: providerId,
		api,
		models,
		getModel,
		state,
		setResponses(steps) {
			queue = [...steps];
		},
		appendResponses(steps) {
			queue.push(...steps);
		},
		getPendingResponseCount: () => queue.length,
	};
}
