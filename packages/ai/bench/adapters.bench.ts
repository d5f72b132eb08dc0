import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
	type Api,
	anthropicMessagesApi,
	azureOpenAIResponsesApi,
	bedrockConverseStreamApi,
	googleGenerativeAIApi,
	googleVertexApi,
	type Model,
	mistralConversationsApi,
	normalizeContext,
	openAICodexResponsesApi,
	openAICompletionsApi,
	openAIResponsesApi,
	type ProviderStreams,
	type StreamOptions,
} from "@tau/ai";
import { type MockLlmServer, startMockLlmServer } from "@tau/testkit";
import type { Bench } from "../../../scripts/bench/api.js";

/** Each adapter with the base path its API has on the mock server. */
const ADAPTERS: [api: string, load: () => ProviderStreams, basePath: string][] = [
	["anthropic-messages", anthropicMessagesApi, ""],
	["openai-completions", openAICompletionsApi, "/v1"],
	["openai-responses", openAIResponsesApi, "/v1"],
	["azure-openai-responses", azureOpenAIResponsesApi, "/openai/v1"],
	["openai-codex-responses", openAICodexResponsesApi, "/backend-api"],
	["google-generative-ai", googleGenerativeAIApi, "/v1beta"],
	["google-vertex", googleVertexApi, "/v1"],
	["bedrock-converse-stream", bedrockConverseStreamApi, ""],
	["mistral-conversations", mistralConversationsApi, "/mistral"],
];

/** A ChatGPT-style access token (the Codex adapter reads the account id from it); Bedrock signs with keys. */
const CODEX_TOKEN = `e30.${Buffer.from(JSON.stringify({ "https://api.openai.com/auth": { chatgpt_account_id: "bench" } })).toString("base64url")}.x`;
const AUTH: Record<string, StreamOptions> = {
	"openai-codex-responses": { apiKey: CODEX_TOKEN },
	"bedrock-converse-stream": {
		env: { AWS_ACCESS_KEY_ID: "bench", AWS_SECRET_ACCESS_KEY: "bench", AWS_REGION: "us-east-1" },
	},
};
const ARGUMENT_SIZES_KB = [125, 250, 500, 1000];
const DELTA_BYTES = [1, 16, 256];
const TEXT_TOKENS = 200_000;
/** Live-heap samples (after a forced GC) every this many events, and once at the end. */
const HEAP_SAMPLE_EVERY = 16_384;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function model(api: string, basePath: string, server: MockLlmServer): Model<Api> {
	return {
		id: "bench-model",
		name: "Bench",
		api,
		provider: "bench",
		baseUrl: basePath ? server.url(basePath) : server.baseUrl,
		input: ["text"],
		reasoning: false,
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		contextWindow: 200_000,
		maxTokens: 8192,
	};
}

interface Run {
	ms: number;
	peakHeapMb: number;
}

function liveHeap(): number {
	gc();
	return process.memoryUsage().heapUsed;
}

/**
 * Streams one scripted reply through the adapter. Peak heap is the largest live heap (sampled after a
 * forced GC while events arrive and once at the end, with the whole message still held) above the
 * baseline, so it measures what the stream retains rather than when the collector happened to run.
 */
async function measure(streams: ProviderStreams, target: Model<Api>): Promise<Run> {
	const baseline = liveHeap();
	let peak = baseline;
	let events = 0;
	const started = performance.now();
	const stream = streams.stream(
		target,
		normalizeContext({ messages: [{ role: "user", content: "go", timestamp: 0 }] }),
		AUTH[target.api] ?? { apiKey: "bench" },
	);
	for await (const _event of stream) {
		if (++events % HEAP_SAMPLE_EVERY === 0) peak = Math.max(peak, liveHeap());
	}
	const message = await stream.result();
	const ms = performance.now() - started;
	peak = Math.max(peak, liveHeap());
	if (message.stopReason === "error") throw new Error(`bench request failed: ${message.errorMessage}`);
	return { ms, peakHeapMb: (peak - baseline) / 1024 / 1024 };
}

/** 500 KB-class tool arguments in small deltas, and 200k text tokens, through each adapter over HTTP. */
const bench: Bench = async (ctx) => {
	const server = await startMockLlmServer({ idleTimeoutMs: 0, maxLifetimeMs: 0 });
	try {
		for (const [api, load, basePath] of ADAPTERS) {
			const streams = load();
			const target = model(api, basePath, server);
			server.enqueue({ text: "warm-up" });
			await measure(streams, target);
			for (const deltaBytes of DELTA_BYTES) {
				for (const sizeKb of ARGUMENT_SIZES_KB) {
					const content = "x".repeat(sizeKb * 1024 - 20);
					server.enqueue({
						toolCalls: [{ name: "write", arguments: { path: "a.txt", content }, chunkSize: deltaBytes }],
					});
					const run = await measure(streams, target);
					ctx.record(`${api} tool args ${sizeKb} KB in ${deltaBytes} B deltas: time`, "ms", [run.ms]);
					ctx.record(`${api} tool args ${sizeKb} KB in ${deltaBytes} B deltas: peak heap`, "MB", [run.peakHeapMb]);
				}
			}
			server.enqueue({ text: { tokens: TEXT_TOKENS }, chunkSize: 1 });
			const text = await measure(streams, target);
			ctx.record(`${api} ${TEXT_TOKENS / 1000}k text tokens: time per 1k tokens`, "ms", [
				text.ms / (TEXT_TOKENS / 1000),
			]);
			ctx.record(`${api} ${TEXT_TOKENS / 1000}k text tokens: peak heap`, "MB", [text.peakHeapMb]);
		}
	} finally {
		await server.close();
	}
};

export default bench;
