import { type Api, type AssistantMessage, anthropicMessagesApi, createProvider, type Model } from "@tau/ai";
import {
	type AgentSession,
	type AgentSessionEvent,
	defaultExtensionLoader,
	type ExtensionAPI,
} from "@tau/coding-agent";
import { type MockLlmServer, type ScriptedReply, startMockLlmServer } from "@tau/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createIsolatedSession, isolatedModelRuntime } from "../support/isolated-session.js";

const API_KEY = "test-key";
const servers: MockLlmServer[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((server) => server.close()));
});

interface FaultHarness {
	server: MockLlmServer;
	session: AgentSession;
	events: AgentSessionEvent[];
	sleeps: number[];
}

/** A session whose model talks to the mock server through the real Anthropic Messages adapter. */
async function faultHarness(
	replies: ScriptedReply[],
	settings: Record<string, unknown> = {},
	extensionFactories: ((pi: ExtensionAPI) => void)[] = [],
	retrySleep?: (ms: number, signal: AbortSignal, session: AgentSession) => Promise<void>,
): Promise<FaultHarness> {
	const server = await startMockLlmServer({ apiKey: API_KEY, replies, idleTimeoutMs: 0, maxLifetimeMs: 0 });
	servers.push(server);
	const model: Model<Api> = {
		id: "mock-model",
		name: "Mock",
		api: "anthropic-messages",
		provider: "mock",
		baseUrl: server.baseUrl,
		input: ["text"],
		reasoning: false,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 200_000,
		maxTokens: 8192,
	};
	const provider = createProvider({
		id: "mock",
		auth: { apiKey: { name: "Mock", resolve: async () => ({ auth: { apiKey: API_KEY } }) } },
		models: [model],
		api: anthropicMessagesApi(),
	});
	const sleeps: number[] = [];
	const { session } = await createIsolatedSession({
		modelRuntime: isolatedModelRuntime({ mock: provider }),
		model: provider.getModels()[0]!,
		settings,
		loader: { loadExtensions: defaultExtensionLoader, extensionFactories },
		session: {
			retrySleep: async (ms, signal) => {
				sleeps.push(ms);
				if (retrySleep) await retrySleep(ms, signal, session);
			},
		},
	});
	const events: AgentSessionEvent[] = [];
	session.subscribe((event) => events.push(event));
	return { server, session, events, sleeps };
}

function summary(events: AgentSessionEvent[]): string[] {
	return events.flatMap((event) => {
		switch (event.type) {
			case "auto_retry_start":
				return [`retry_start:${event.attempt}:${event.delayMs}`];
			case "auto_retry_end":
				return [`retry_end:${event.success}`];
			case "compaction_start":
				return [`compaction_start:${event.reason}`];
			case "compaction_end":
				return [`compaction_end:${event.reason}:${event.willRetry}:${event.errorMessage ? "error" : "ok"}`];
			case "agent_settled":
				return ["settled"];
			default:
				return [];
		}
	});
}

function branchKinds(session: AgentSession): string[] {
	return session.sessionManager.getBranch().flatMap((entry) => {
		if (entry.type === "message") {
			const message = entry.message as { role: string; stopReason?: string };
			return [message.stopReason ? `${message.role}:${message.stopReason}` : message.role];
		}
		if (entry.type === "context_edit") return [`context_edit:${entry.replacement === null ? "omit" : "replace"}`];
		return entry.type === "compaction" ? ["compaction"] : [];
	});
}

const ok: ScriptedReply = { text: "recovered", usage: { input: 50, output: 5 } };

/**
 * A long first answer, then `second` answers the second prompt under a budget so tight that the session must
 * compact; the summary request gets "SUMMARY" and the `after` replies follow.
 */
async function compactingSecondPrompt(second: ScriptedReply, after: ScriptedReply[] = []): Promise<FaultHarness> {
	const h = await faultHarness(
		[
			{ text: "word ".repeat(3000), usage: { input: 100, output: 3000 } },
			second,
			{ text: "SUMMARY", usage: { input: 10, output: 5 } },
			...after,
		],
		{ compaction: { enabled: true, reserveTokens: 1000, keepRecentTokens: 20 } },
	);
	await h.session.prompt("first");
	await h.session.prompt("second");
	return h;
}

describe("provider faults through the real adapter", () => {
	it("429 with retry-after: session-level backoff (2 s), omitted attempt, success", async () => {
		const h = await faultHarness([
			{ fault: { kind: "http", status: 429, retryAfter: 1, message: "rate limited" } },
			ok,
		]);
		await h.session.prompt("hi");
		expect(summary(h.events)).toEqual(["retry_start:1:2000", "retry_end:true", "settled"]);
		expect(h.sleeps).toEqual([2000]);
		expect(branchKinds(h.session)).toEqual([
			"system",
			"user",
			"assistant:error",
			"context_edit:omit",
			"assistant:stop",
		]);
		expect(h.session.getLastAssistantText()).toBe("recovered");
	});

	it("a retry-after beyond retry.provider.maxRetryDelayMs fails the request ('retry delay'); the session retries it", async () => {
		const h = await faultHarness(
			[{ fault: { kind: "http", status: 429, retryAfter: 30, message: "slow down" } }, ok],
			{ retry: { provider: { maxRetries: 2, maxRetryDelayMs: 1_000 } } },
		);
		await h.session.prompt("hi");
		const start = h.events.find((event) => event.type === "auto_retry_start");
		expect(start?.type === "auto_retry_start" && start.errorMessage).toMatch(/retry delay/i);
		expect(summary(h.events)).toEqual(["retry_start:1:2000", "retry_end:true", "settled"]);
		// The request layer did not wait out the 30 s the server asked for: one request, then the session's retry.
		expect(h.server.requests).toHaveLength(2);
	});

	it.each([
		[500, "internal server error"],
		[529, "Overloaded"],
	])("HTTP %i is retried", async (status, message) => {
		const h = await faultHarness([{ fault: { kind: "http", status, message } }, ok]);
		await h.session.prompt("hi");
		expect(summary(h.events)).toEqual(["retry_start:1:2000", "retry_end:true", "settled"]);
		expect(h.server.requests).toHaveLength(2);
		expect(branchKinds(h.session)).toEqual([
			"system",
			"user",
			"assistant:error",
			"context_edit:omit",
			"assistant:stop",
		]);
	});

	it("a mid-stream disconnect is retried", async () => {
		const h = await faultHarness([{ text: { tokens: 200 }, fault: { kind: "disconnect", afterEvents: 4 } }, ok]);
		await h.session.prompt("hi");
		expect(summary(h.events)).toEqual(["retry_start:1:2000", "retry_end:true", "settled"]);
		expect(branchKinds(h.session)).toEqual([
			"system",
			"user",
			"assistant:error",
			"context_edit:omit",
			"assistant:stop",
		]);
		expect(h.session.getLastAssistantText()).toBe("recovered");
	});

	it("a stream that goes quiet midway for httpIdleTimeoutMs is retried like any transient failure", async () => {
		const h = await faultHarness([{ text: { tokens: 400 }, fault: { kind: "stall", afterBytes: 3000 } }, ok], {
			httpIdleTimeoutMs: 1000,
		});
		await h.session.prompt("hi");
		expect(summary(h.events)).toEqual(["retry_start:1:2000", "retry_end:true", "settled"]);
		expect(branchKinds(h.session)).toEqual([
			"system",
			"user",
			"assistant:error",
			"context_edit:omit",
			"assistant:stop",
		]);
		expect(h.session.getLastAssistantText()).toBe("recovered");
		// The retried request does not carry the failed partial answer.
		const retried = h.server.requests[1]!.body as { messages: { role: string }[] };
		expect(retried.messages.map((message) => message.role)).toEqual(["user"]);
		expect(await h.server.waitForSettled(0)).toMatchObject({ outcome: "client-closed" });
	});

	it("a context overflow error compacts once and retries", async () => {
		const h = await compactingSecondPrompt({ fault: { kind: "overflow" } }, [ok]);
		expect(summary(h.events)).toEqual([
			"settled",
			"compaction_start:overflow",
			"compaction_end:overflow:true:ok",
			"settled",
		]);
		// The failed attempt stays in the file but is omitted; the retry follows the compaction.
		expect(branchKinds(h.session)).toEqual([
			"system",
			"user",
			"assistant:stop",
			"user",
			"assistant:error",
			"context_edit:omit",
			"compaction",
			"assistant:stop",
		]);
		expect(h.session.getLastAssistantText()).toBe("recovered");
	});

	it("a silent overflow (usage above the window) compacts without retrying", async () => {
		const h = await compactingSecondPrompt({ text: "answer", usage: { input: 250_000, output: 5 } });
		expect(summary(h.events)).toEqual([
			"settled",
			"compaction_start:overflow",
			"compaction_end:overflow:false:ok",
			"settled",
		]);
		expect(h.server.requests).toHaveLength(3);
		// A completed response cannot be continued: it is kept and compacted, nothing is retried.
		expect(branchKinds(h.session)).toEqual([
			"system",
			"user",
			"assistant:stop",
			"user",
			"assistant:stop",
			"compaction",
		]);
	});

	it("a length stop below maxTokens (context pressure) compacts once and retries", async () => {
		const h = await compactingSecondPrompt(
			{ text: "cut", stopReason: "length", usage: { input: 190_000, output: 3 } },
			[ok],
		);
		expect(summary(h.events)).toEqual([
			"settled",
			"compaction_start:overflow",
			"compaction_end:overflow:true:ok",
			"settled",
		]);
		expect(branchKinds(h.session)).toEqual([
			"system",
			"user",
			"assistant:stop",
			"user",
			"assistant:length",
			"context_edit:omit",
			"compaction",
			"assistant:stop",
		]);
		expect(h.session.getLastAssistantText()).toBe("recovered");
	});

	it("a recoverable length stop with nothing to compact ends the run with an error (no silent exit)", async () => {
		const h = await faultHarness([{ text: "", stopReason: "length", usage: { input: 190_000, output: 3 } }], {
			compaction: { enabled: true, reserveTokens: 1000, keepRecentTokens: 20_000 },
		});
		await h.session.prompt("first");
		expect(summary(h.events)).toEqual([
			"compaction_start:overflow",
			"compaction_end:overflow:false:error",
			"settled",
		]);
		const last = h.session.messages.at(-1) as AssistantMessage;
		expect(last.role).toBe("assistant");
		expect(last.stopReason).toBe("error");
		expect(last.errorMessage).toMatch(/^Context overflow recovery failed: Nothing to compact/);
		// The omission is undone (the truncated reply is visible again) and the run ends with the error.
		expect(branchKinds(h.session)).toEqual([
			"system",
			"user",
			"assistant:length",
			"context_edit:omit",
			"context_edit:replace",
			"assistant:error",
		]);
	});

	it("abort during the retry backoff: no second request, retry cancelled, settled aborted", async () => {
		const h = await faultHarness(
			[{ fault: { kind: "http", status: 503, message: "service unavailable" } }, ok],
			{},
			[],
			(_ms, signal, session) =>
				new Promise((_resolve, reject) => {
					signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
					void session.abort();
				}),
		);
		await h.session.prompt("hi");
		expect(summary(h.events)).toEqual(["retry_start:1:2000", "retry_end:false", "settled"]);
		expect(h.events.filter((event) => event.type === "auto_retry_end")).toEqual([
			{ type: "auto_retry_end", success: false, attempt: 1, finalError: "Retry cancelled" },
		]);
		expect(h.events.at(-1)).toEqual({ type: "agent_settled", aborted: true });
		expect(h.server.requests).toHaveLength(1);
		// The cancelled retry leaves the failed attempt omitted from context, as it was when the backoff began.
		expect(branchKinds(h.session)).toEqual(["system", "user", "assistant:error", "context_edit:omit"]);
	});
});

describe("provider hooks through the real adapter", () => {
	it("before_provider_headers, before_provider_request and after_provider_response reach the wire", async () => {
		const responses: number[] = [];
		const h = await faultHarness([ok], {}, [
			(pi) => {
				pi.on("before_provider_headers", (event) => {
					event.headers["x-tau-test"] = "from-extension";
				});
				pi.on("before_provider_request", (event) => ({
					...(event.payload as object),
					metadata: { user_id: "u-42" },
				}));
				pi.on("after_provider_response", (event) => {
					responses.push(event.status);
				});
			},
		]);
		await h.session.prompt("hi");
		const request = h.server.requests[0]!;
		expect(request.headers["x-tau-test"]).toBe("from-extension");
		expect((request.body as { metadata?: unknown }).metadata).toEqual({ user_id: "u-42" });
		expect(responses).toEqual([200]);
	});
});
