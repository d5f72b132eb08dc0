import {
	type AssistantMessage,
	type Message,
	type Model,
	type ToolResultMessage,
	transformMessages,
	zeroUsage,
} from "@tau/ai";
import { describe, expect, it } from "vitest";

const target: Model<"anthropic-messages"> = {
	id: "claude",
	name: "Claude",
	api: "anthropic-messages",
	provider: "anthropic",
	baseUrl: "https://api.anthropic.com",
	reasoning: true,
	input: ["text", "image"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 200000,
	maxTokens: 8192,
};

function assistant(content: AssistantMessage["content"], fields: Partial<AssistantMessage> = {}): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: target.api,
		provider: target.provider,
		model: target.id,
		usage: zeroUsage(),
		stopReason: "stop",
		timestamp: 1,
		...fields,
	};
}
const result = (toolCallId: string, fields: Partial<ToolResultMessage> = {}): ToolResultMessage => ({
	role: "toolResult",
	toolCallId,
	toolName: "t",
	content: [{ type: "text", text: "ok" }],
	isError: false,
	timestamp: 2,
	...fields,
});
const user = (text: string): Message => ({ role: "user", content: text, timestamp: 3 });
const call = (id: string, extra = {}) => ({ type: "toolCall" as const, id, name: "t", arguments: {}, ...extra });

describe("transformMessages", () => {
	const reasoning: AssistantMessage["content"] = [
		{ type: "thinking", thinking: "", thinkingSignature: "enc" },
		{ type: "thinking", thinking: "[redacted]", thinkingSignature: "x", redacted: true },
		{ type: "thinking", thinking: "  " },
		{ type: "thinking", thinking: "visible" },
		{ type: "text", text: "answer", textSignature: "sig" },
	];

	it("keeps signed, redacted and non-empty thinking for the same model", () => {
		const [out] = transformMessages([assistant(reasoning)], target);
		expect((out as AssistantMessage).content).toEqual([reasoning[0], reasoning[1], reasoning[3], reasoning[4]]);
	});

	it("drops thinking and signatures when provider, api or model differ", () => {
		for (const other of [{ provider: "openrouter" }, { api: "openai-responses" }, { model: "claude-2" }]) {
			const source = assistant([...reasoning, call("c1", { thoughtSignature: "ts" })], {
				stopReason: "toolUse",
				...other,
			});
			const out = transformMessages([source, result("c1")], target);
			expect((out[0] as AssistantMessage).content).toEqual([{ type: "text", text: "answer" }, call("c1")]);
		}
	});

	it("maps normalized tool-call ids onto the following results", () => {
		const source = assistant([call("call|item/1")], { provider: "openai", stopReason: "toolUse" });
		const out = transformMessages([source, result("call|item/1")], target, (id) =>
			id.replace(/[^a-zA-Z0-9_-]/g, "_"),
		);
		expect((out[0] as AssistantMessage).content[0]).toMatchObject({ id: "call_item_1" });
		expect((out[1] as ToolResultMessage).toolCallId).toBe("call_item_1");
	});

	it("inserts synthetic results for orphaned calls before the next user message and at the end", () => {
		const out = transformMessages(
			[
				assistant([call("a")], { stopReason: "toolUse" }),
				user("next"),
				assistant([call("b")], { stopReason: "toolUse" }),
			],
			target,
		);
		expect(out.map((m) => m.role)).toEqual(["assistant", "toolResult", "user", "assistant", "toolResult"]);
		expect(out[1]).toMatchObject({
			toolCallId: "a",
			isError: true,
			content: [{ type: "text", text: "No result provided" }],
		});
		expect(out[4]).toMatchObject({ toolCallId: "b", isError: true });
	});

	it("moves a system message inside a tool exchange after the results without duplicating them", () => {
		const sys: Message = { role: "system", content: "update", timestamp: 2 };
		const out = transformMessages(
			[assistant([call("a"), call("b")], { stopReason: "toolUse" }), result("a"), sys, result("b"), user("u")],
			target,
		);
		expect(out.map((m) => m.role)).toEqual(["assistant", "toolResult", "toolResult", "system", "user"]);
	});

	it("removes failed turns", () => {
		const out = transformMessages(
			[
				user("q"),
				assistant([{ type: "text", text: "part" }], { stopReason: "aborted" }),
				assistant([], { stopReason: "error", errorMessage: "x" }),
			],
			target,
		);
		expect(out).toEqual([user("q")]);
	});

	it("replaces image runs for non-vision models with distinct placeholders", () => {
		const textOnly = { ...target, input: ["text" as const] };
		const img = { type: "image" as const, data: "AA", mimeType: "image/png" };
		const messages: Message[] = [
			{ role: "user", content: [img, img, { type: "text", text: "look" }, img], timestamp: 1 },
			assistant([call("c")], { stopReason: "toolUse" }),
			result("c", { content: [img, img] }),
		];
		const out = transformMessages(messages, textOnly);
		expect(out[0]).toMatchObject({
			content: [
				{ type: "text", text: "(image omitted: model does not support images)" },
				{ type: "text", text: "look" },
				{ type: "text", text: "(image omitted: model does not support images)" },
			],
		});
		expect((out[2] as ToolResultMessage).content).toEqual([
			{ type: "text", text: "(tool image omitted: model does not support images)" },
		]);
		expect(messages[0]).toMatchObject({ content: [img, img, { type: "text", text: "look" }, img] });
	});

	it("treats null content as empty", () => {
		const broken = { ...assistant([]), content: null } as unknown as Message;
		expect(transformMessages([broken], target)).toEqual([{ ...assistant([]) }]);
	});
});
