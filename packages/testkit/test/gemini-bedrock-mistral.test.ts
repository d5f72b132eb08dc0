import { crc32 } from "node:zlib";
import { type MockLlmServer, startMockLlmServer } from "@tau/testkit";
import { afterEach, describe, expect, it } from "vitest";

// These protocols are driven through their official SDKs by @tau/ai's wire tests; here the wire shapes
// themselves are checked with plain HTTP.

let server: MockLlmServer;
afterEach(() => server?.close());

function post(path: string, body: unknown): Promise<Response> {
	return fetch(server.url(path), {
		method: "POST",
		body: JSON.stringify(body),
		headers: { "content-type": "application/json" },
	});
}

/** Splits an AWS event-stream body into messages, checking both CRCs of each. */
function decodeEventStream(bytes: Buffer): { headers: Record<string, string>; payload: unknown }[] {
	const messages: { headers: Record<string, string>; payload: unknown }[] = [];
	let offset = 0;
	while (offset < bytes.length) {
		const total = bytes.readUInt32BE(offset);
		const headerLength = bytes.readUInt32BE(offset + 4);
		const message = bytes.subarray(offset, offset + total);
		expect(message.readUInt32BE(8)).toBe(crc32(message.subarray(0, 8)));
		expect(message.readUInt32BE(total - 4)).toBe(crc32(message.subarray(0, total - 4)));
		const headers: Record<string, string> = {};
		let at = 12;
		while (at < 12 + headerLength) {
			const nameLength = message.readUInt8(at);
			const name = message.subarray(at + 1, at + 1 + nameLength).toString();
			const valueLength = message.readUInt16BE(at + 2 + nameLength);
			headers[name] = message.subarray(at + 4 + nameLength, at + 4 + nameLength + valueLength).toString();
			at += 4 + nameLength + valueLength;
		}
		messages.push({ headers, payload: JSON.parse(message.subarray(12 + headerLength, total - 4).toString()) });
		offset += total;
	}
	return messages;
}

describe("Gemini generateContent", () => {
	it("streams GenerateContentResponse chunks for :streamGenerateContent, with the model from the path", async () => {
		server = await startMockLlmServer({
			replies: [{ thinking: "hmm", text: "a b", usage: { input: 5, output: 4, reasoning: 1 } }],
		});
		const response = await post("/v1beta/models/gemini-x:streamGenerateContent?alt=sse", { contents: [] });
		expect(response.headers.get("content-type")).toContain("text/event-stream");
		const chunks = (await response.text())
			.split("\n\n")
			.filter(Boolean)
			.map((frame) => JSON.parse(frame.slice("data: ".length)));
		expect(chunks[0].candidates[0].content.parts[0]).toMatchObject({ text: "hmm", thought: true });
		expect(chunks.at(-1)).toMatchObject({
			modelVersion: "gemini-x",
			candidates: [{ finishReason: "STOP" }],
			usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, thoughtsTokenCount: 1, totalTokenCount: 9 },
		});
		expect(server.requests[0]).toMatchObject({ protocol: "google-generative-ai", stream: true });
	});
});

describe("Bedrock Converse", () => {
	it("frames a converse-stream reply as AWS event-stream messages with valid CRCs", async () => {
		server = await startMockLlmServer({
			replies: [{ text: "hi", toolCalls: [{ id: "t1", name: "read", arguments: { p: 1 } }] }],
		});
		const response = await post("/model/anthropic.claude%3Av1/converse-stream", { messages: [] });
		expect(response.headers.get("content-type")).toBe("application/vnd.amazon.eventstream");
		const messages = decodeEventStream(Buffer.from(await response.arrayBuffer()));
		expect(messages.map((message) => message.headers[":event-type"])).toEqual([
			"messageStart",
			"contentBlockDelta",
			"contentBlockStop",
			"contentBlockStart",
			"contentBlockDelta",
			"contentBlockStop",
			"messageStop",
			"metadata",
		]);
		expect(messages[3]?.payload).toEqual({
			contentBlockIndex: 1,
			start: { toolUse: { toolUseId: "t1", name: "read" } },
		});
		expect(messages[6]?.payload).toEqual({ stopReason: "tool_use" });
		expect(server.requests[0]).toMatchObject({ protocol: "bedrock-converse", stream: true });
	});

	it("sends a scripted mid-stream error as an exception message", async () => {
		server = await startMockLlmServer({
			replies: [{ text: "x", stopReason: "error", error: { type: "throttlingException", message: "slow" } }],
		});
		const response = await post("/model/m/converse-stream", {});
		const last = decodeEventStream(Buffer.from(await response.arrayBuffer())).at(-1);
		expect(last).toEqual({
			headers: {
				":exception-type": "throttlingException",
				":content-type": "application/json",
				":message-type": "exception",
			},
			payload: { message: "slow" },
		});
	});
});

describe("Mistral chat", () => {
	it("is served under /mistral, with thinking chunks, cached tokens and [DONE]", async () => {
		server = await startMockLlmServer({
			replies: [{ thinking: "t", text: "a", usage: { input: 2, output: 3, cacheRead: 4 } }],
		});
		const response = await post("/mistral/v1/chat/completions", { model: "magistral", stream: true, messages: [] });
		const frames = (await response.text()).split("\n\n").filter(Boolean);
		expect(frames.at(-1)).toBe("data: [DONE]");
		const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame.slice("data: ".length)));
		expect(chunks[1].choices[0].delta.content).toEqual([
			{ type: "thinking", thinking: [{ type: "text", text: "t" }] },
		]);
		expect(chunks.at(-1)).toMatchObject({
			choices: [{ finish_reason: "stop" }],
			usage: { prompt_tokens: 6, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 4 } },
		});
		expect(server.requests[0]?.protocol).toBe("mistral-chat");
	});
});
