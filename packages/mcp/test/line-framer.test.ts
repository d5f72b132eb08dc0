import type { JsonRpcMessage } from "@tau/mcp";
import { describe, expect, it, vi } from "vitest";
import { LineFramer } from "../src/transport/stdio/line-framer.js";

function framer(max = 16 * 1024 * 1024) {
	const messages: JsonRpcMessage[] = [];
	const errors: string[] = [];
	const f = new LineFramer(max, { message: (m) => messages.push(m), error: (e) => errors.push(e.message) });
	return { f, messages, errors };
}

describe("stdio framing", () => {
	it("joins a message delivered in 1-byte chunks once, copying each byte a bounded number of times", () => {
		// Counts the bytes copied and scanned instead of timing: re-joining or re-scanning the pending buffer per
		// chunk would copy O(n²) bytes (n = 64 KB here gives ~2 GB).
		const { f, messages, errors } = framer();
		const payload = "x".repeat(64 * 1024);
		const line = Buffer.from(`${JSON.stringify({ jsonrpc: "2.0", method: "big", params: { payload } })}\n`);
		const concat = vi.spyOn(Buffer, "concat");
		const indexOf = vi.spyOn(Buffer.prototype, "indexOf");
		try {
			for (let i = 0; i < line.length; i++) f.push(line.subarray(i, i + 1));
			const copied = concat.mock.calls.reduce((sum, [list]) => sum + list.reduce((n, b) => n + b.length, 0), 0);
			const scanned = indexOf.mock.calls.reduce(
				(sum, [, start], call) => sum + (indexOf.mock.contexts[call] as Buffer).length - Number(start ?? 0),
				0,
			);
			expect(copied).toBeLessThanOrEqual(line.length);
			expect(scanned).toBeLessThanOrEqual(line.length);
		} finally {
			concat.mockRestore();
			indexOf.mockRestore();
		}
		expect(errors).toEqual([]);
		expect(messages).toHaveLength(1);
		expect((messages[0] as unknown as { params: { payload: string } }).params.payload).toBe(payload);
	});

	it("parses a 5 MB message delivered in pipe-sized chunks", () => {
		const { f, messages, errors } = framer();
		const payload = "x".repeat(5_000_000);
		const line = Buffer.from(`${JSON.stringify({ jsonrpc: "2.0", method: "big", params: { payload } })}\n`);
		for (let i = 0; i < line.length; i += 65_536) f.push(line.subarray(i, i + 65_536));
		expect(errors).toEqual([]);
		expect(messages).toHaveLength(1);
		expect((messages[0] as unknown as { params: { payload: string } }).params.payload.length).toBe(5_000_000);
	});

	it("strips CR, skips blank lines, reports a bad line and keeps going", () => {
		const { f, messages, errors } = framer();
		f.push(
			Buffer.from(
				'{"jsonrpc":"2.0","method":"a"}\r\n\n  \nnot json\n{"jsonrpc":"1.0","id":1}\n{"jsonrpc":"2.0","id":2,"result":{}}\n',
			),
		);
		expect(messages).toEqual([
			{ jsonrpc: "2.0", method: "a" },
			{ jsonrpc: "2.0", id: 2, result: {} },
		]);
		expect(errors).toEqual([expect.stringMatching(/Invalid JSON/), expect.stringMatching(/not a JSON-RPC 2.0/)]);
	});

	it("drops an oversized message with an error and parses the next one", () => {
		const { f, messages, errors } = framer(100);
		f.push(Buffer.from(`{"jsonrpc":"2.0","method":"${"y".repeat(200)}"}`));
		f.push(Buffer.from('"}\n{"jsonrpc":"2.0","method":"ok"}\n'));
		expect(errors).toEqual([expect.stringMatching(/exceeds 100 bytes/)]);
		expect(messages).toEqual([{ jsonrpc: "2.0", method: "ok" }]);
	});

	it("reports an incomplete message at end of output", () => {
		const { f, errors } = framer();
		f.push(Buffer.from('{"jsonrpc":"2.0",'));
		f.end();
		expect(errors).toEqual([expect.stringMatching(/ended inside a message/)]);
	});
});
