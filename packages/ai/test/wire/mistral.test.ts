import { normalizeContext } from "@tau/ai";
import { beforeAll, describe, expect, it } from "vitest";
import {
	ADAPTER_LOAD_TIMEOUT_MS,
	assistantMessage,
	body,
	collect,
	loadWireAdapters,
	mockServer,
	readTool,
	transcript,
	wireApi,
	wireAuth,
	wireModel,
} from "./wire-harness.js";

const api = "mistral-conversations";

type ChatBody = {
	messages: { role: string; tool_calls?: { id: string }[]; tool_call_id?: string; content?: unknown }[];
	prompt_mode?: string;
	reasoning_effort?: string;
	prompt_cache_key?: string;
};

beforeAll(() => loadWireAdapters(["mistral-conversations"]), ADAPTER_LOAD_TIMEOUT_MS);

describe("mistral-conversations requests", () => {
	it("gives foreign tool-call ids Mistral's nine-character form, the same in the call and its result", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "ok" });
		const context = normalizeContext({
			tools: [readTool],
			messages: [
				{ role: "user", content: "go", timestamp: 1 },
				{
					...assistantMessage("anthropic-messages", [
						{ type: "toolCall", id: "toolu_01ABCdef|with-extra", name: "read", arguments: { path: "a" } },
					]),
					provider: "anthropic",
				},
				{
					role: "toolResult",
					toolCallId: "toolu_01ABCdef|with-extra",
					toolName: "read",
					content: [{ type: "text", text: "x" }],
					isError: false,
					timestamp: 3,
				},
			],
		});
		await collect(wireApi(api).stream(wireModel(api, server), context, wireAuth(api)));
		const sent = body(server.requests[0]) as unknown as ChatBody;
		const callId = sent.messages[1]?.tool_calls?.[0]?.id ?? "";
		expect(callId).toMatch(/^[a-zA-Z0-9]{9}$/);
		expect(sent.messages[2]).toMatchObject({ role: "tool", tool_call_id: callId, name: "read" });
	});

	it("maps thinking to the model's reasoning effort, or the reasoning prompt mode when it has no effort levels", async () => {
		const server = await mockServer(api);
		server.setFactory(() => ({ text: "ok" }));
		const withEfforts = wireModel(api, server, {
			reasoning: true,
			thinkingLevelMap: { off: "none", low: "low", medium: "medium", high: "high" },
		});
		const magistral = wireModel(api, server, { reasoning: true });
		await collect(wireApi(api).streamSimple(withEfforts, transcript(), { ...wireAuth(api), reasoning: "high" }));
		await collect(wireApi(api).streamSimple(withEfforts, transcript(), wireAuth(api)));
		await collect(wireApi(api).streamSimple(magistral, transcript(), { ...wireAuth(api), reasoning: "high" }));
		const sent = server.requests.map((entry) => entry.body as ChatBody);
		expect(sent.map((request) => [request.reasoning_effort, request.prompt_mode])).toEqual([
			["high", undefined],
			["none", undefined],
			[undefined, "reasoning"],
		]);
	});

	it("keeps a session on one cache: prompt_cache_key and the x-affinity header", async () => {
		const server = await mockServer(api);
		server.enqueue({ text: "ok" });
		await collect(
			wireApi(api).stream(wireModel(api, server), transcript(), { ...wireAuth(api), sessionId: "session-42" }),
		);
		expect((body(server.requests[0]) as ChatBody).prompt_cache_key).toBe("session-42");
		expect(server.requests[0]?.headers["x-affinity"]).toBe("session-42");
		expect(server.requests[0]?.headers.authorization).toBe("Bearer test-key");
	});
});
