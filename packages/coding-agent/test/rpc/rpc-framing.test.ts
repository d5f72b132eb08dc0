import { fauxAssistantMessage } from "@tau/ai";
import { afterEach, describe, expect, it } from "vitest";
import { RpcHarness } from "./harness.js";

let harness: RpcHarness | undefined;
afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

describe("RPC framing and malformed input", () => {
	it("accepts LF- and CRLF-terminated commands and echoes ids", async () => {
		harness = await RpcHarness.start();
		const lf = harness.waitFor((r) => r.id === "a");
		const crlf = harness.waitFor((r) => r.id === "b");
		harness.input.write('{"id":"a","type":"get_state"}\n{"id":"b","type":"get_state"}\r\n');
		expect((await lf).success).toBe(true);
		expect((await crlf).success).toBe(true);
	});

	it("answers invalid JSON with a parse failure without id and keeps running", async () => {
		harness = await RpcHarness.start();
		harness.writeLine("{oops");
		const parse = await harness.waitFor((r) => r.type === "response" && r.command === "parse");
		expect(Object.keys(parse).sort()).toEqual(["command", "error", "success", "type"]);
		expect(parse.success).toBe(false);
		expect(String(parse.error)).toMatch(/^Failed to parse command: /);
		expect((await harness.send({ type: "get_state" })).success).toBe(true);
	});

	it("answers a non-object JSON value or a missing type with the invalid-command failure", async () => {
		harness = await RpcHarness.start();
		harness.writeLine("null");
		harness.writeLine("5");
		harness.writeLine('{"id":"x1","kind":"get_state"}');
		const failures = await harness.waitForCount((r) => r.command === "parse", 3);
		for (const failure of failures) {
			expect(failure.error).toBe('Invalid command: expected a JSON object with a string "type" field');
		}
		expect(failures.map((f) => f.id)).toEqual([undefined, undefined, "x1"]);
		expect((await harness.send({ type: "get_state" })).success).toBe(true);
	});

	it("ignores blank lines and rejects an unknown type with its id", async () => {
		harness = await RpcHarness.start();
		harness.writeLine("");
		harness.writeLine("   ");
		const unknown = await harness.send({ id: "u1", type: "frobnicate" });
		expect(unknown).toEqual({
			id: "u1",
			type: "response",
			command: "frobnicate",
			success: false,
			error: "Unknown command: frobnicate",
		});
		expect(harness.records.filter((r) => r.type === "response")).toHaveLength(1);
	});

	it("omits the id key for commands sent without one", async () => {
		harness = await RpcHarness.start();
		harness.writeLine('{"type":"set_auto_retry","enabled":true}');
		const response = await harness.waitFor((r) => r.command === "set_auto_retry");
		expect(response).toEqual({ type: "response", command: "set_auto_retry", success: true });
		expect(harness.rawLines.at(-1)).toBe('{"type":"response","command":"set_auto_retry","success":true}');
	});

	it("keeps U+2028/U+2029 of a prompt and of assistant output inside single records", async () => {
		harness = await RpcHarness.start();
		harness.faux.setResponses([fauxAssistantMessage("out\u2028put\u2029done")]);
		const settled = harness.waitFor((r) => r.type === "agent_settled");
		await harness.data({ type: "prompt", message: "line\u2028sep\u2029para" });
		await settled;
		const user = harness.records.find((r) => r.type === "message_start" && r.message.role === "user");
		expect(user?.message.content[0].text).toBe("line\u2028sep\u2029para");
		const deltas = harness.records
			.filter((r) => r.type === "message_update")
			.map((r) => r.assistantMessageEvent as { type: string; delta?: string })
			.filter((e) => e.type === "text_delta")
			.map((e) => e.delta)
			.join("");
		expect(deltas).toBe("out\u2028put\u2029done");
		for (const line of harness.rawLines) expect(() => JSON.parse(line)).not.toThrow();
	});

	it("decodes a multi-byte character split across stdin chunks", async () => {
		harness = await RpcHarness.start();
		const bytes = Buffer.from('{"id":"n","type":"set_session_name","name":"caf\u00e9 \ud83d\ude00"}\n');
		const response = harness.waitFor((r) => r.id === "n");
		for (const byte of bytes) harness.input.write(Buffer.from([byte]));
		expect((await response).success).toBe(true);
		expect((await harness.data({ type: "get_state" })).sessionName).toBe("caf\u00e9 \ud83d\ude00");
	});

	it("executes a final command without trailing LF when stdin closes, then exits 0", async () => {
		harness = await RpcHarness.start();
		await harness.send({ type: "get_state" });
		harness.input.end('{"id":"last","type":"get_state"}');
		const code = await harness.exited;
		expect(code).toBe(0);
		expect(harness.exitCode).toBe(0);
		expect(harness.records.find((r) => r.id === "last")?.success).toBe(true);
		harness = undefined;
	});
});
