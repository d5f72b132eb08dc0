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
import {
	anthropicMessagesApi,
	azureOpenAIResponsesApi,
	bedrockConverseStreamApi,
	googleGenerativeAIApi,
	googleVertexApi,
	mistralConversationsApi,
	normalizeContext,
	openAICodexResponsesApi,
	openAICompletionsApi,
	openAIResponsesApi,
	type StreamOptions,
	zeroUsage,
} from "@tau/ai";
import { type MockLlmServer, type RecordedRequest, startMockLlmServer } from "@tau/testkit";
import { afterEach, expect } from "vitest";
import { protocolViolations } from "../support/event-protocol.js";

export const WIRE_APIS = ["anthropic-messages", "openai-completions", "openai-responses"] as const;
/** The APIs added over their providers' own SDKs (docs/providers.md). */
export const SDK_WIRE_APIS = [
	"google-generative-ai",
	"google-vertex",
	"bedrock-converse-stream",
	"mistral-conversations",
	"azure-openai-responses",
	"openai-codex-responses",
] as const;
export const ALL_WIRE_APIS = [...WIRE_APIS, ...SDK_WIRE_APIS] as const;
export type WireApi = (typeof ALL_WIRE_APIS)[number];

export const API_KEY = "test-key";

/** A ChatGPT access token (a JWT) whose claims name account `acct_test`, as the Codex backend needs. */
export const CODEX_TOKEN = `eyJhbGciOiJub25lIn0.${Buffer.from(
	JSON.stringify({ "https://api.openai.com/auth": { chatgpt_account_id: "acct_test" } }),
).toString("base64url")}.signature`;

/** The credential the mock server expects for `api` (Codex authenticates with the account's token). */
export function wireKey(api: WireApi): string {
	return api === "openai-codex-responses" ? CODEX_TOKEN : API_KEY;
}

/** Request options that authenticate `api` against the mock: a key, or AWS access keys for Bedrock's SigV4. */
export function wireAuth(api: WireApi): StreamOptions {
	if (api === "bedrock-converse-stream") {
		return { env: { AWS_ACCESS_KEY_ID: API_KEY, AWS_SECRET_ACCESS_KEY: "test-secret", AWS_REGION: "us-east-1" } };
	}
	return { apiKey: wireKey(api) };
}

/** The tool every wire test declares: one string parameter, like the built-in `read`. */
export const readTool: Tool = {
	name: "read",
	description: "Read a file",
	parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

const ADAPTERS: Record<WireApi, () => ProviderStreams> = {
	"anthropic-messages": anthropicMessagesApi,
	"openai-completions": openAICompletionsApi,
	"openai-responses": openAIResponsesApi,
	"google-generative-ai": googleGenerativeAIApi,
	"google-vertex": googleVertexApi,
	"bedrock-converse-stream": bedrockConverseStreamApi,
	"mistral-conversations": mistralConversationsApi,
	"azure-openai-responses": azureOpenAIResponsesApi,
	"openai-codex-responses": openAICodexResponsesApi,
};

/** Each API's adapter module, which imports its SDK: the module the lazy adapter loads on its first request. */
const ADAPTER_MODULES: Record<WireApi, () => Promise<unknown>> = {
	"anthropic-messages": () => import("@tau/ai/api/anthropic-messages"),
	"openai-completions": () => import("@tau/ai/api/openai-completions"),
	"openai-responses": () => import("@tau/ai/api/openai-responses"),
	"google-generative-ai": () => import("@tau/ai/api/google-generative-ai"),
	"google-vertex": () => import("@tau/ai/api/google-vertex"),
	"bedrock-converse-stream": () => import("@tau/ai/api/bedrock-converse-stream"),
	"mistral-conversations": () => import("@tau/ai/api/mistral-conversations"),
	"azure-openai-responses": () => import("@tau/ai/api/azure-openai-responses"),
	"openai-codex-responses": () => import("@tau/ai/api/openai-codex-responses"),
};

/**
 * Loads the adapters of `apis` and their SDKs ahead of a file's tests (`beforeAll`). A cold SDK import can
 * take seconds on a busy machine; charged to whichever test happens to run first, it would time that test
 * out for a reason that is not the test's.
 */
export async function loadWireAdapters(apis: readonly WireApi[]): Promise<void> {
	await Promise.all(apis.map((api) => ADAPTER_MODULES[api]()));
}

/** How long `loadWireAdapters` may take in a `beforeAll` (a cold import of every SDK on a loaded machine). */
export const ADAPTER_LOAD_TIMEOUT_MS = 120_000;

/** The lazily loaded adapter for `api`, exactly as provider factories use it. */
export function wireApi(api: WireApi): ProviderStreams {
	return ADAPTERS[api]();
}

/** Where each API's base URL points on the mock (each path as the provider's own endpoint has it). */
const BASE_PATHS: Record<WireApi, string> = {
	"anthropic-messages": "",
	"openai-completions": "/v1",
	"openai-responses": "/v1",
	"google-generative-ai": "/v1beta",
	"google-vertex": "/v1",
	"bedrock-converse-stream": "",
	"mistral-conversations": "/mistral",
	"azure-openai-responses": "/openai/v1",
	"openai-codex-responses": "/backend-api",
};

/** A model served by `server` at the base URL its API expects. */
export function wireModel(api: WireApi, server: MockLlmServer, overrides: Partial<Model<Api>> = {}): Model<Api> {
	return {
		id: "mock-model",
		name: "Mock Model",
		api,
		provider: "mock",
		baseUrl: BASE_PATHS[api] ? server.url(BASE_PATHS[api]) : server.baseUrl,
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

/** A mock server closed after the current test, expecting the credential of `api`. */
export async function mockServer(api?: WireApi): Promise<MockLlmServer> {
	const apiKey = api ? wireKey(api) : API_KEY;
	const server = await startMockLlmServer({ apiKey, idleTimeoutMs: 0, maxLifetimeMs: 0 });
	servers.push(server);
	return server;
}

export function transcript(context: Partial<Context> = {}): TranscriptContext {
	return normalizeContext({ messages: [{ role: "user", content: "Hello", timestamp: 1 }], ...context });
}

/** A user turn asking about one small PNG, for checking each protocol's image form. */
export function imageTranscript(): TranscriptContext {
	return transcript({
		messages: [
			{
				role: "user",
				content: [
					{ type: "text", text: "What is this?" },
					{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
				],
				timestamp: 1,
			},
		],
	});
}

export interface Collected {
	events: AssistantMessageEvent[];
	message: AssistantMessage;
}

/** Drains a stream, checks the event grammar (docs/design/ai-adapters.md#event-order), and returns the events with the terminal message. */
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
