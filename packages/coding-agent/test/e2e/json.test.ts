import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliBuilt, jsonLines, mockServer, runCli, sandbox, writeMockModels } from "./harness.js";

describe.skipIf(!cliBuilt)("JSON mode (built CLI)", () => {
	it("writes the session header first, then the event stream ending in agent_settled", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "Hello" });
		const result = await runCli(box, ["--mode", "json", "Hi"]);
		expect(result.code).toBe(0);
		const records = jsonLines(result.stdout);
		expect(records[0]).toMatchObject({ type: "session", version: 3, cwd: box.project });
		expect(typeof records[0]!.id).toBe("string");
		expect(typeof records[0]!.timestamp).toBe("string");
		const types = records.map((record) => record.type);
		expect(types).toContain("agent_start");
		expect(types).toContain("message_update");
		expect(types.at(-1)).toBe("agent_settled");
		const deltas = records.filter((record) => record.type === "message_update");
		for (const update of deltas) {
			expect(update).not.toHaveProperty("message");
			expect(update.assistantMessageEvent).not.toHaveProperty("partial");
		}
	});

	it("--tau-events adds tau's tool-intent records to the stream; without it the stream is Pi's", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		writeFileSync(join(box.project, "notes.txt"), "remember the milk\n");
		const toolRun = () =>
			server.enqueue(
				{ toolCalls: [{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }], stopReason: "toolUse" },
				{ text: "Done" },
			);
		const intents = (stdout: string) =>
			jsonLines(stdout).filter(
				(record) =>
					record.type === "entry_appended" &&
					(record.entry as { customType?: string } | undefined)?.customType === "tau.tool-intent",
			);
		toolRun();
		const plain = await runCli(box, ["--mode", "json", "read the notes"]);
		toolRun();
		const opted = await runCli(box, ["--mode", "json", "--tau-events", "read the notes"]);
		expect(plain.code).toBe(0);
		expect(opted.code).toBe(0);
		expect(intents(plain.stdout)).toEqual([]);
		expect(intents(opted.stdout)).toHaveLength(1);
	});

	it("runs a multi-turn tool session; toolcall_start names the call", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		writeFileSync(join(box.project, "notes.txt"), "remember the milk\n");
		server.enqueue(
			{ toolCalls: [{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }], stopReason: "toolUse" },
			{ toolCalls: [{ id: "call_2", name: "bash", arguments: { command: "echo done" } }], stopReason: "toolUse" },
			{ text: "All done" },
		);
		const result = await runCli(box, ["--mode", "json", "read the notes"]);
		expect(result.code).toBe(0);
		const records = jsonLines(result.stdout);
		const starts = records.filter(
			(record) =>
				record.type === "message_update" &&
				(record.assistantMessageEvent as { type: string }).type === "toolcall_start",
		);
		expect(starts.map((record) => record.assistantMessageEvent)).toEqual([
			expect.objectContaining({ id: "call_1", toolName: "read" }),
			expect.objectContaining({ id: "call_2", toolName: "bash" }),
		]);
		const toolEnds = records.filter((record) => record.type === "tool_execution_end");
		expect(toolEnds).toHaveLength(2);
		expect(JSON.stringify(toolEnds[0])).toContain("remember the milk");
		expect(server.requests).toHaveLength(3);
		expect(JSON.stringify(server.requests[2]!.body)).toContain("done");
	});

	it("a provider error still exits 0, with the error in message_end", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		writeFileSync(join(box.agentDir, "settings.json"), JSON.stringify({ retry: { enabled: false } }));
		server.enqueue({ fault: { kind: "http", status: 400, message: "invalid thing" } });
		const result = await runCli(box, ["--mode", "json", "Hi"]);
		expect(result.code).toBe(0);
		const ends = jsonLines(result.stdout).filter(
			(record) => record.type === "message_end" && (record.message as { role: string }).role === "assistant",
		);
		expect(ends.at(-1)!.message).toMatchObject({ stopReason: "error" });
		expect(JSON.stringify(ends.at(-1))).toContain("invalid thing");
	});

	it("keeps U+2028 and U+2029 inside one line", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "a\u2028b\u2029c" });
		const result = await runCli(box, ["--mode", "json", "Hi"]);
		const lines = result.stdout.split("\n").filter((line) => line !== "");
		for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
		const end = jsonLines(result.stdout).find(
			(record) => record.type === "message_end" && (record.message as { role: string }).role === "assistant",
		);
		expect(JSON.stringify(end)).toContain("a\u2028b\u2029c");
	});

	it("recovers from a context overflow by compacting and retrying", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		// Earlier turns give compaction something to summarize (more than it keeps). Streamed in large
		// chunks: 30,000 one-word deltas cost seconds of CPU that this test is not about.
		const long = { text: { tokens: 15_000 }, chunkSize: 1_000 };
		server.enqueue(long, long);
		const setup = await runCli(box, ["-p", "one", "two"]);
		expect(setup.code).toBe(0);
		server.enqueue({ fault: { kind: "overflow" } });
		// Summary requests and the retried prompt all get this answer.
		server.setFactory(() => ({ text: "recovered" }));
		const result = await runCli(box, ["--continue", "--mode", "json", "three"]);
		expect(result.code).toBe(0);
		const records = jsonLines(result.stdout);
		expect(records.find((record) => record.type === "compaction_start")).toMatchObject({ reason: "overflow" });
		expect(records.find((record) => record.type === "compaction_end")).toMatchObject({ willRetry: true });
		const last = records.filter(
			(record) => record.type === "message_end" && (record.message as { role: string }).role === "assistant",
		);
		expect(JSON.stringify(last.at(-1))).toContain("recovered");
	});
});
