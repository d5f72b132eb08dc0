import { type AssistantMessageEvent, parseStreamingJson, type ToolCall } from "@tau/ai";
import { describe, expect, it } from "vitest";
import { API_KEY, mockServer, readTool, transcript, WIRE_APIS, wireApi, wireModel } from "./wire-harness.js";

const ARGS = { path: "src/index.ts", content: 'line "one"\nline two\u00e9' };

describe.each(WIRE_APIS)("%s: partial tool arguments parsed when read", (api) => {
	it("a reader sees at each delta the parse of the text so far; the final arguments become a plain value", async () => {
		const server = await mockServer();
		server.enqueue({ toolCalls: [{ id: "call_1", itemId: "fc_1", name: "write", arguments: ARGS, chunkSize: 4 }] });
		const stream = wireApi(api).stream(wireModel(api, server), transcript({ tools: [readTool] }), {
			apiKey: API_KEY,
		});
		let text = "";
		let deltas = 0;
		let reads = 0;
		let previous: unknown;
		let serialized = "";
		await stream.forward((event: AssistantMessageEvent) => {
			if (event.type !== "toolcall_delta") return;
			text += event.delta;
			const call = event.partial.content[event.contentIndex] as ToolCall;
			// Every other delta is left unread: the next read must still cover the text of both.
			if (++deltas % 2 === 0) return;
			const seen = call.arguments;
			expect(seen, text).toEqual(parseStreamingJson(text));
			// Unchanged text reads as the same object; copies and JSON see the value.
			expect(call.arguments).toBe(seen);
			expect({ ...call }.arguments).toBe(seen);
			serialized = JSON.stringify(event.partial);
			if (previous !== undefined && seen !== previous) reads++;
			previous = seen;
		});
		const message = await stream.result();
		expect(reads).toBeGreaterThan(2);
		expect(serialized).toContain('"arguments":{');
		const call = message.content[0] as ToolCall;
		expect(call.arguments).toEqual(ARGS);
		expect(Object.getOwnPropertyDescriptor(call, "arguments")).toMatchObject({ value: ARGS, writable: true });
		expect(Object.keys(call)).toContain("arguments");
		expect(structuredClone(call).arguments).toEqual(ARGS);
	});

	it("a stream nobody reads still ends with the complete arguments", async () => {
		const server = await mockServer();
		server.enqueue({ toolCalls: [{ id: "call_1", itemId: "fc_1", name: "write", arguments: ARGS, chunkSize: 3 }] });
		const stream = wireApi(api).stream(wireModel(api, server), transcript({ tools: [readTool] }), {
			apiKey: API_KEY,
		});
		let end: ToolCall | undefined;
		await stream.forward((event: AssistantMessageEvent) => {
			if (event.type === "toolcall_end") end = event.toolCall;
		});
		expect(end?.arguments).toEqual(ARGS);
		expect((await stream.result()).content[0]).toMatchObject({ type: "toolCall", arguments: ARGS });
	});
});
