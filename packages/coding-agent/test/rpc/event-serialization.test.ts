import type { AssistantMessage, AssistantMessageEvent } from "@tau/ai";
import { describe, expect, it } from "vitest";
import type { AgentSessionEvent } from "../../src/index.js";
import { serializeJsonEvent, toJsonEvent } from "../../src/modes/shared/index.js";

function partial(): AssistantMessage {
	return {
		role: "assistant",
		content: [{ type: "text", text: "Hel" }],
		api: "anthropic-messages",
		provider: "mock",
		model: "mock-model",
		usage: {
			input: 10,
			output: 1,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 11,
			cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 },
		},
		stopReason: "pending",
		timestamp: 1,
	};
}

function update(message: AssistantMessage, delta: string): AgentSessionEvent {
	const assistantMessageEvent: AssistantMessageEvent = {
		type: "text_delta",
		contentIndex: 0,
		delta,
		partial: message,
	};
	return { type: "message_update", message, assistantMessageEvent } as AgentSessionEvent;
}

const plain = (event: AgentSessionEvent) => `${JSON.stringify(toJsonEvent(event))}\n`;

describe("JSON event lines", () => {
	it("a message_update line is exactly the JSON of the event record, delta after delta", () => {
		const message = partial();
		for (const delta of ["lo", " wor", 'ld \u2028 "quoted"']) {
			const event = update(message, delta);
			expect(serializeJsonEvent(event)).toBe(plain(event));
		}
	});

	it("follows a usage record that is replaced or whose token counts change in place", () => {
		const message = partial();
		expect(serializeJsonEvent(update(message, "a"))).toBe(plain(update(message, "a")));
		message.usage = { ...message.usage, output: 2, totalTokens: 12 };
		expect(JSON.parse(serializeJsonEvent(update(message, "b"))).usage.output).toBe(2);
		message.usage.output = 3;
		message.usage.totalTokens = 13;
		const line = serializeJsonEvent(update(message, "c"));
		expect(line).toBe(plain(update(message, "c")));
		expect(JSON.parse(line).usage.totalTokens).toBe(13);
	});

	it("thinking and tool-call deltas, and deltas of another shape, are the JSON of their record", () => {
		const message = partial();
		const events: AssistantMessageEvent[] = [
			{ type: "thinking_delta", contentIndex: 1, delta: "hmm\n", partial: message },
			{ type: "toolcall_delta", contentIndex: 2, delta: '{"path":"a\\b', partial: message },
			// Keys in another order, or an extra one, still serialize as their record does.
			{ contentIndex: 0, type: "text_delta", delta: "x", partial: message } as AssistantMessageEvent,
			{ type: "text_delta", contentIndex: 0, delta: "y", partial: message, extra: 1 } as AssistantMessageEvent,
			{ type: "text_delta", contentIndex: 0, delta: "no partial" } as AssistantMessageEvent,
			// The same block index with another kind, then another index: each line names its own.
			{ type: "text_delta", contentIndex: 2, delta: "t", partial: message },
			{ type: "text_delta", contentIndex: 3, delta: "u", partial: message },
			Object.assign(Object.create({ inherited: true }), {
				type: "text_delta",
				contentIndex: 3,
				delta: "v",
				partial: message,
			}) as AssistantMessageEvent,
		];
		for (const assistantMessageEvent of events) {
			const event = { type: "message_update", message, assistantMessageEvent } as AgentSessionEvent;
			expect(serializeJsonEvent(event)).toBe(plain(event));
		}
	});

	it("other events are their plain JSON", () => {
		const event = { type: "agent_start" } as AgentSessionEvent;
		expect(serializeJsonEvent(event)).toBe('{"type":"agent_start"}\n');
	});
});
