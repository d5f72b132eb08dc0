import type { AssistantMessage } from "@tau/ai";
import type { Bench } from "../../../scripts/bench/api.js";
import { JsonlSplitter, serializeJsonLine, toJsonEvent } from "../src/modes/shared/index.js";

/** A growing partial message, as the agent hands to `message_update` listeners. */
function partialWithText(length: number): AssistantMessage {
	return {
		role: "assistant",
		content: [{ type: "text", text: "x".repeat(length) }],
		api: "faux",
		provider: "faux",
		model: "faux-1",
		usage: {
			input: 10,
			output: 10,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 20,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "pending",
		timestamp: 0,
	} as AssistantMessage;
}

const bench: Bench = async (ctx) => {
	// Reading: 10 MB of commands arriving in 64 KiB chunks, with U+2028 inside strings.
	const record = serializeJsonLine({ id: "req_1", type: "prompt", message: `hello\u2028${"w".repeat(1000)}` });
	const input = Buffer.from(record.repeat(Math.ceil(10_000_000 / record.length)));
	const chunks: Buffer[] = [];
	for (let offset = 0; offset < input.length; offset += 65536) chunks.push(input.subarray(offset, offset + 65536));
	await ctx.time(
		"jsonl split 10 MB (64 KiB chunks)",
		() => {
			let lines = 0;
			const splitter = new JsonlSplitter(() => {
				lines++;
			});
			for (const chunk of chunks) splitter.push(chunk);
			splitter.end();
			return lines;
		},
		{ iterations: 10 },
	);

	// Writing: message_update serialization stays constant-size as the partial message grows.
	for (const size of [1_000, 100_000]) {
		const partial = partialWithText(size);
		const event = {
			type: "message_update" as const,
			message: partial,
			assistantMessageEvent: { type: "text_delta" as const, contentIndex: 0, delta: "abc", partial },
		};
		await ctx.time(
			`message_update serialize, partial ${size / 1000}k chars (x1000)`,
			() => {
				for (let i = 0; i < 1000; i++) serializeJsonLine(toJsonEvent(event));
			},
			{ iterations: 20 },
		);
	}
};

export default bench;
