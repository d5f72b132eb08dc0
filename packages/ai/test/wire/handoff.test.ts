import type { AssistantMessage, Context, ToolCall } from "@tau/ai";
import { normalizeContext } from "@tau/ai";
import { beforeAll, describe, expect, it } from "vitest";
import {
	ADAPTER_LOAD_TIMEOUT_MS,
	ALL_WIRE_APIS,
	collect,
	loadWireAdapters,
	mockServer,
	readTool,
	type WireApi,
	wireApi,
	wireAuth,
	wireModel,
} from "./wire-harness.js";

/** Where each API's request carries a replayed tool call (name and arguments) and its result. */
function replayedToolCall(api: WireApi, body: string): boolean {
	const args = /\\?"path\\?":\s*\\?"notes\.md\\?"/;
	const call = api.startsWith("google") ? body.includes('"functionCall"') : true;
	return call && args.test(body) && body.includes('"read"');
}

function replayedToolResult(body: string): boolean {
	return body.includes("file contents: remember the milk");
}

const THOUGHT = "I should read the notes first";

/**
 * A transcript made by `source` moves to `target`: the user turn, the source's answer (thinking, a tool call)
 * and the tool result. Returns the body of the target's request.
 */
async function handOff(source: WireApi, target: WireApi, targetModelId: string): Promise<string> {
	const sourceServer = await mockServer(source);
	sourceServer.enqueue({
		thinking: { text: THOUGHT, signature: "sig-source" },
		toolCalls: [{ id: "call_src_1", itemId: "fc_src_1", name: "read", arguments: { path: "notes.md" } }],
	});
	const first: Context = {
		tools: [readTool],
		messages: [{ role: "user", content: "What do my notes say?", timestamp: 1 }],
	};
	const answer = (
		await collect(
			wireApi(source).stream(
				wireModel(source, sourceServer, { reasoning: true }),
				normalizeContext(first),
				wireAuth(source),
			),
		)
	).message;
	expect(answer.stopReason, `${source} answered`).toBe("toolUse");
	const call = answer.content.find((block): block is ToolCall => block.type === "toolCall")!;

	const targetServer = await mockServer(target);
	targetServer.enqueue({ text: "Your notes say: remember the milk." });
	const second: Context = {
		tools: [readTool],
		messages: [
			...first.messages,
			answer as AssistantMessage,
			{
				role: "toolResult",
				toolCallId: call.id,
				toolName: "read",
				content: [{ type: "text", text: "file contents: remember the milk" }],
				isError: false,
				timestamp: 3,
			},
		],
	};
	const targetModel = wireModel(target, targetServer, { id: targetModelId, reasoning: true });
	const reply = await collect(wireApi(target).stream(targetModel, normalizeContext(second), wireAuth(target)));
	expect(reply.message.stopReason, `${source} → ${target}`).toBe("stop");
	return targetServer.requests[0]?.rawBody ?? "";
}

/** APIs whose requests replay a model's own thinking to it (Chat Completions replays none by default). */
const REPLAYS_OWN_THINKING = ALL_WIRE_APIS.filter((api) => api !== "openai-completions");

beforeAll(() => loadWireAdapters(ALL_WIRE_APIS), ADAPTER_LOAD_TIMEOUT_MS);

describe("cross-provider hand-off: a transcript moves between any two APIs", () => {
	for (const source of ALL_WIRE_APIS) {
		it(`from ${source} to every API, keeping the tool call and its result, dropping the foreign thinking`, async () => {
			for (const target of ALL_WIRE_APIS) {
				const body = await handOff(source, target, "other-model");
				const where = `${source} → ${target}`;
				expect(replayedToolCall(target, body), `${where}: tool call`).toBe(true);
				expect(replayedToolResult(body), `${where}: tool result`).toBe(true);
				// Another model's reasoning is only valid for it, and read as text the new model would take it
				// for its own reply (docs/ai.md): it is dropped with its signature.
				expect(body.includes(THOUGHT), `${where}: thinking`).toBe(false);
				expect(body, `${where}: signature`).not.toContain("sig-source");
			}
		});
	}

	it.each(REPLAYS_OWN_THINKING)("back to the same %s model, the thinking travels too", async (api) => {
		const body = await handOff(api, api, "mock-model");
		expect(replayedToolCall(api, body)).toBe(true);
		expect(replayedToolResult(body)).toBe(true);
		expect(body).toContain(THOUGHT);
	});
});
