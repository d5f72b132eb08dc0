import { describe, expect, it } from "vitest";
import { decodeAnthropicSse, readDeltaData } from "../../src/api/anthropic-messages/sse-events.js";

const delta = (index: string, type: string, field: string, literal: string) =>
	`{"type":"content_block_delta","index":${index},"delta":{"type":"${type}","${field}":${literal}}}`;

/** What a full parse gives, or "throws". */
function parsed(data: string): unknown {
	try {
		return JSON.parse(data);
	} catch {
		return "throws";
	}
}

/** What the decoder gives, or "throws": the fast reading when it applies, else the full parse. */
function decoded(data: string): unknown {
	try {
		return decodeAnthropicSse({ event: "content_block_delta", data }, new Headers());
	} catch {
		return "throws";
	}
}

describe("Anthropic delta data read without a full JSON parse", () => {
	const literals = [
		'""',
		'" alpha"',
		'"quote \\" and backslash \\\\ and slash \\/"',
		'"escapes \\n\\t\\r\\b\\f and \\u00e9 \\ud83d\\ude00"',
		'"raw é 😀 and a lone \\ud800"',
		`"${"x".repeat(5000)}"`,
		'"{\\"path\\": \\"a.txt\\""',
	];
	const kinds = [
		["text_delta", "text"],
		["thinking_delta", "thinking"],
		["input_json_delta", "partial_json"],
	] as const;

	it("reads the compact form every delta kind takes to exactly what JSON.parse gives", () => {
		for (const [type, field] of kinds) {
			for (const literal of literals) {
				for (const index of ["0", "7", "123456789"]) {
					const data = delta(index, type, field, literal);
					expect(readDeltaData(data), data).toEqual(JSON.parse(data));
					expect(Object.keys((readDeltaData(data) as { delta: object }).delta)).toEqual(["type", field]);
				}
			}
		}
	});

	it("leaves every other spelling to the full parse, so the decoder's result never differs from it", () => {
		const others = [
			delta("0", "text_delta", "text", '"a","extra":1'),
			delta("0", "text_delta", "text", '"a", "b"'),
			delta("0", "text_delta", "text", '"raw\tcontrol"'),
			delta("0", "text_delta", "text", '"bad \\x escape"'),
			delta("0", "text_delta", "text", '"unterminated'),
			delta("0", "text_delta", "text", '"'),
			delta("0", "text_delta", "text", "5"),
			delta("01", "text_delta", "text", '"leading zero"'),
			delta("1234567890", "text_delta", "text", '"ten digits"'),
			delta("", "text_delta", "text", '"no index"'),
			delta("0", "text_delta", "thinking", '"wrong field"'),
			delta("0", "signature_delta", "signature", '"sig"'),
			delta("0", "citations_delta", "text", '"unknown kind"'),
			'{"type":"content_block_delta", "index":0,"delta":{"type":"text_delta","text":"spaced"}}',
			'{"index":0,"type":"content_block_delta","delta":{"type":"text_delta","text":"reordered"}}',
			`${delta("0", "text_delta", "text", '"trailing"')} `,
			'{"type":"message_stop"}',
		];
		for (const data of others) {
			const fast = readDeltaData(data);
			if (fast !== undefined) expect(fast, data).toEqual(JSON.parse(data));
			expect(decoded(data), data).toEqual(parsed(data));
		}
		// The forms that are not valid JSON must not be read as deltas (negative control for the checks above).
		expect(readDeltaData(delta("0", "text_delta", "text", '"raw\tcontrol"'))).toBeUndefined();
		expect(readDeltaData(delta("01", "text_delta", "text", '"x"'))).toBeUndefined();
		expect(readDeltaData(delta("0", "text_delta", "text", '"'))).toBeUndefined();
		expect(decoded(delta("0", "text_delta", "text", '"a","extra":1'))).toEqual({
			type: "content_block_delta",
			index: 0,
			delta: { type: "text_delta", text: "a", extra: 1 },
		});
	});
});
