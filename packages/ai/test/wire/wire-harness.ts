import type {
	Api,
	AssistantMessage,
	AssistantMessageEvent,
	AssistantMessageEventStream,
	Context,
	Model,
	ProviderStreams,
	Tool,
	TranscriptContext,
} from "@tau/ai";
import { anthropicMessagesApi, normalizeContext, openAICompletionsApi, openAIResponsesApi, zeroUsage } from "@tau/ai";
import { type MockLlmServer, type RecordedRequest, startMockLlmServer } from "@tau/testkit";
import { afterEach, expect } from "vitest";
import { protocolViolations } from "../support/event-protocol.js";

export const WIRE_APIS = ["anthropic-messages", "openai-completions", "openai-responses"] as const;
export type WireApi = (typeof WIRE_APIS)[number];

export const API_KEY = "test-key";

/** The tool every wire test declares: one string parameter, like the built-in `read`. */
export const readTool: Tool = {
	name: "read",
	description: "Read a file",
	parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

/** The lazily loaded adapter for `api`, exactly as provider factories use it. */
export function wireApi(api: WireApi): ProviderStreams {
	if (api === "anthropic-messages") return anthropicMessagesApi();
	return api === "openai-completions" ? openAICompletionsApi() : openAIResponsesApi();
}

/** A model served by `server`; Anthropic's base URL is the root, OpenAI's includes `/v1`. */
export function wireModel(api: WireApi, server: MockLlmServer, overrides: Partial<Model<Api>> = {}): Model<Api> {
	return {
		id: "mock-model",
		name: "Mock Model",
		api,
		provider: "mock",
		baseUrl: api === "anthropic-messages" ? server.baseUrl : server.url("/v1"),
		input: ["text", "image"],
		reasoning: false,
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		contextWindow: 200_000,
		maxTokens: 8192,
		...overrides,
	};
}

const servers: MockLlmServer[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A mock server closed after the current test. */
export async function mockServer(): Promise<MockLlmServer> {
	const server = await startMockLlmServer({ apiKey: API_KEY, idleTimeoutMs: 0, maxLifetimeMs: 0 });
	servers.push(server);
	return server;
}

export function transcript(context: Partial<Context> = {}): TranscriptContext {
	return normalizeContext({ messages: [{ role: "user", content: "Hello", timestamp: 1 }], ...context });
}

export interface Collected {
	events: AssistantMessageEvent[];
	message: AssistantMessage;
}

/** Drains a stream, checks the event grammar (ai.md §3.2), and returns the events with the terminal message. */
export async function collect(stream: AssistantMessageEventStream): Promise<Collected> {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(event);
	const message = await stream.result();
	expect(protocolViolations(events)).toEqual([]);
	const terminal = events.at(-1);
	expect(terminal?.type === "done" ? terminal.message : terminal?.type === "error" ? terminal.error : undefined).toBe(
		message,
	);
	return { events, message };
}

/** The request body the server received, as an object. */
export function body(request: RecordedRequest | undefined): Record<string, unknown> {
	expect(request, "the server received the request").toBeDefined();
	return (request?.body ?? {}) as Record<string, unknown>;
}

export function texts(message: AssistantMessage): string {
	return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** A finished assistant message of the mock model, for building transcripts to replay. */
export function assistantMessage(
	api: WireApi,
	content: AssistantMessage["content"],
	extra: Partial<AssistantMessage> = {},
): AssistantMessage {
	return {
		role: "assistant",
		content,
		api,
		provider: "mock",
		model: "mock-model",
		usage: zeroUsage(),
		stopReason: content.some((block) => block.type === "toolCall") ? "toolUse" : "stop",
		timestamp: 2,
		...extra,
	};
}
