import type { AssistantMessage, Message, Tool } from "@tau/ai";
import { type MockLlmServer, startMockLlmServer } from "@tau/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { body, collect, transcript, wireApi, wireModel } from "./wire-harness.js";

/*
 * A Claude Pro/Max subscription token sends tools under Claude Code's names (as Pi 1.6 does) and maps
 * the calls that come back to tau's names; an API key sends tau's names unchanged.
 */

const api = "anthropic-messages";
const SUBSCRIPTION_TOKEN = "sk-ant-oat01-wire-test";
const API_KEY = "sk-ant-api03-wire-test";

const tool = (name: string): Tool => ({
	name,
	description: `The ${name} tool`,
	parameters: { type: "object", properties: { path: { type: "string" } } },
});
/** Two of Claude Code's tools in tau's casing, one of its tools already in its casing, and one of tau's own. */
const tools = [tool("read"), tool("bash"), tool("WebFetch"), tool("find")];

type WireBlock = { type: string; name?: string; id?: string; tool_use_id?: string };
type WireMessage = { role: string; content: string | WireBlock[] };

let server: MockLlmServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function serve(key: string): Promise<MockLlmServer> {
	server = await startMockLlmServer({ apiKey: key, idleTimeoutMs: 0, maxLifetimeMs: 0 });
	return server;
}

async function send(mock: MockLlmServer, key: string, messages: Message[]): Promise<AssistantMessage> {
	const context = transcript({ systemPrompt: "Be brief.", tools, messages });
	const { message } = await collect(wireApi(api).stream(wireModel(api, mock), context, { apiKey: key }));
	expect(message.stopReason, message.errorMessage).toBe("toolUse");
	return message;
}

/** The result of the `read` call `id`, as the agent loop records it. */
const readResult = (id: string): Message => ({
	role: "toolResult",
	toolCallId: id,
	toolName: "read",
	content: [{ type: "text", text: "export {}" }],
	isError: false,
	timestamp: 3,
});

const toolCallNames = (message: AssistantMessage) =>
	message.content.flatMap((block) => (block.type === "toolCall" ? [block.name] : []));

describe("anthropic-messages with a Claude Pro/Max subscription token", () => {
	it("declares tools under Claude Code's casing and names the returned calls with tau's tools", async () => {
		const mock = await serve(SUBSCRIPTION_TOKEN);
		mock.enqueue({
			toolCalls: [
				{ name: "Read", arguments: { path: "a.ts" } },
				{ name: "Bash", arguments: { command: "ls" } },
				{ name: "find", arguments: { pattern: "*.ts" } },
			],
		});
		const message = await send(mock, SUBSCRIPTION_TOKEN, [{ role: "user", content: "look", timestamp: 1 }]);
		const request = body(mock.requests[0]);
		expect((request.tools as WireBlock[]).map((declared) => declared.name)).toEqual([
			"Read",
			"Bash",
			"WebFetch",
			"find",
		]);
		expect(toolCallNames(message)).toEqual(["read", "bash", "find"]);
	});

	it("replays earlier tool calls under Claude Code's names, and the tool results still reference them", async () => {
		const mock = await serve(SUBSCRIPTION_TOKEN);
		mock.enqueue({ toolCalls: [{ id: "toolu_first", name: "Read", arguments: { path: "a.ts" } }] });
		mock.enqueue({ toolCalls: [{ id: "toolu_second", name: "Bash", arguments: { command: "ls" } }] });
		const ask: Message = { role: "user", content: "look", timestamp: 1 };
		const first = await send(mock, SUBSCRIPTION_TOKEN, [ask]);
		expect(toolCallNames(first)).toEqual(["read"]);
		const result = readResult("toolu_first");
		const second = await send(mock, SUBSCRIPTION_TOKEN, [ask, first, result]);
		expect(toolCallNames(second)).toEqual(["bash"]);
		const replayed = body(mock.requests[1]).messages as WireMessage[];
		expect(replayed.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
		expect(replayed[1]?.content).toEqual([
			expect.objectContaining({ type: "tool_use", id: "toolu_first", name: "Read" }),
		]);
		expect(replayed[2]?.content).toEqual([
			expect.objectContaining({ type: "tool_result", tool_use_id: "toolu_first" }),
		]);
	});
});

describe("anthropic-messages with an API key (negative control)", () => {
	it("sends tau's tool names unchanged and keeps the names the response uses", async () => {
		const mock = await serve(API_KEY);
		mock.enqueue({ toolCalls: [{ id: "toolu_1", name: "read", arguments: { path: "a.ts" } }] });
		mock.enqueue({ toolCalls: [{ name: "Read", arguments: { path: "b.ts" } }] });
		const ask: Message = { role: "user", content: "look", timestamp: 1 };
		const first = await send(mock, API_KEY, [ask]);
		expect((body(mock.requests[0]).tools as WireBlock[]).map((declared) => declared.name)).toEqual([
			"read",
			"bash",
			"WebFetch",
			"find",
		]);
		expect(toolCallNames(first)).toEqual(["read"]);
		const result = readResult("toolu_1");
		const second = await send(mock, API_KEY, [ask, first, result]);
		expect(toolCallNames(second)).toEqual(["Read"]);
		const replayed = body(mock.requests[1]).messages as WireMessage[];
		expect(replayed[1]?.content).toEqual([expect.objectContaining({ type: "tool_use", name: "read" })]);
	});
});
