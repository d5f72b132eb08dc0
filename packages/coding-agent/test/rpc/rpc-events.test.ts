import type { AgentToolResult } from "@tau/agent";
import { fauxAssistantMessage, fauxText, fauxToolCall } from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { gate, RpcHarness, type WireRecord } from "./harness.js";

let harness: RpcHarness | undefined;
afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

const echoTool = (pi: ExtensionAPI) =>
	pi.registerTool({
		name: "echo",
		label: "Echo",
		description: "Echoes its text",
		parameters: Type.Object({ text: Type.String() }),
		execute: async (_id, params: { text: string }, _signal, onUpdate): Promise<AgentToolResult<unknown>> => {
			onUpdate?.({ content: [{ type: "text", text: "partial" }], details: {} });
			return { content: [{ type: "text", text: `echo:${params.text}` }], details: {} };
		},
	});

function label(record: WireRecord): string {
	if (record.type === "message_start" || record.type === "message_end")
		return `${record.type}(${record.message.role})`;
	return record.type;
}

describe("RPC session events", () => {
	it("streams a tool-calling run with the JSON wire transform and the specified order", async () => {
		harness = await RpcHarness.start({ loader: { extensionFactories: [echoTool] } });
		harness.faux.setResponses([
			fauxAssistantMessage([fauxText("Let me echo."), fauxToolCall("echo", { text: "hi" }, { id: "call_1" })], {
				stopReason: "toolUse",
			}),
			fauxAssistantMessage("All done."),
		]);
		const settled = harness.waitFor((r) => r.type === "agent_settled");
		await harness.data({ type: "prompt", message: "echo hi" });
		await settled;
		const records = harness.records.filter((r) => r.type !== "response");

		for (const update of records.filter((r) => r.type === "message_update")) {
			expect(Object.keys(update).sort()).toEqual(["assistantMessageEvent", "type", "usage"]);
			expect(update.assistantMessageEvent).not.toHaveProperty("partial");
			expect(update.usage).toHaveProperty("totalTokens");
		}
		const events = records.filter((r) => r.type === "message_update").map((r) => r.assistantMessageEvent);
		expect(events.find((e) => e.type === "toolcall_start")).toEqual({
			type: "toolcall_start",
			contentIndex: 1,
			id: "call_1",
			toolName: "echo",
		});
		const firstEnd = records.find((r) => r.type === "message_end" && r.message.role === "assistant");
		const firstTurn = records
			.slice(0, records.indexOf(firstEnd as WireRecord))
			.filter((r) => r.type === "message_update")
			.map((r) => r.assistantMessageEvent);
		const deltas = firstTurn
			.filter((e) => e.type === "text_delta" && e.contentIndex === 0)
			.map((e) => e.delta)
			.join("");
		const textEnd = firstTurn.find((e) => e.type === "text_end" && e.contentIndex === 0);
		expect(deltas).toBe("Let me echo.");
		expect(textEnd.content).toBe(deltas);
		expect(firstEnd?.message.content[0].text).toBe(deltas);

		const order = records
			.map(label)
			.filter((type) => type !== "message_update" && type !== "entry_appended" && type !== "queue_update");
		expect(order).toEqual([
			"agent_start",
			"turn_start",
			"message_start(system)",
			"message_end(system)",
			"message_start(user)",
			"message_end(user)",
			"message_start(assistant)",
			"message_end(assistant)",
			"tool_execution_start",
			"tool_execution_update",
			"tool_execution_end",
			"message_start(toolResult)",
			"message_end(toolResult)",
			"turn_end",
			"turn_start",
			"message_start(assistant)",
			"message_end(assistant)",
			"turn_end",
			"agent_end",
			"agent_settled",
		]);
		const start = records.find((r) => r.type === "tool_execution_start");
		expect(start).toEqual({
			type: "tool_execution_start",
			toolCallId: "call_1",
			toolName: "echo",
			args: { text: "hi" },
		});
		const end = records.find((r) => r.type === "tool_execution_end");
		expect(end).toMatchObject({ toolCallId: "call_1", toolName: "echo", isError: false });
		expect(end?.result.content).toEqual([{ type: "text", text: "echo:hi" }]);
		const turnEnd = records.find((r) => r.type === "turn_end");
		expect(turnEnd?.toolResults.map((m: { toolCallId: string }) => m.toolCallId)).toEqual(["call_1"]);
		expect(records.filter((r) => r.type === "agent_settled")).toEqual([{ type: "agent_settled", aborted: false }]);
	});

	it("tau-only events come only after set_tau_events: entries Pi appends silently are announced", async () => {
		const rpc = await RpcHarness.start();
		harness = rpc;
		const announced = () => rpc.records.filter((r) => r.type === "entry_appended").map((r) => r.entry.type as string);
		await rpc.data({ type: "set_session_name", name: "first" });
		expect(rpc.records).toContainEqual({ type: "session_info_changed", name: "first" });
		expect(announced()).toEqual([]);
		expect(await rpc.send({ type: "set_tau_events", enabled: true })).toMatchObject({ success: true });
		await rpc.data({ type: "set_session_name", name: "second" });
		expect(announced()).toEqual(["session_info"]);
		await rpc.data({ type: "set_tau_events", enabled: false });
		await rpc.data({ type: "set_session_name", name: "third" });
		expect(announced()).toEqual(["session_info"]);
	});

	it("emits agent_settled once after an auto-retry", async () => {
		harness = await RpcHarness.start({ settings: { retry: { enabled: true, maxRetries: 2, baseDelayMs: 1 } } });
		harness.faux.setResponses([
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "529 overloaded" }),
			fauxAssistantMessage("recovered"),
		]);
		const settled = harness.waitFor((r) => r.type === "agent_settled");
		await harness.data({ type: "prompt", message: "go" });
		await settled;
		const types = harness.records.map((r) => r.type);
		expect(types).toContain("auto_retry_start");
		expect(types.filter((t) => t === "agent_end").length).toBe(2);
		expect(types.filter((t) => t === "agent_settled").length).toBe(1);
		expect(types.lastIndexOf("agent_end")).toBeLessThan(types.indexOf("agent_settled"));
		expect(await harness.data({ type: "get_last_assistant_text" })).toEqual({ text: "recovered" });
	});

	it("reports extension handler errors as extension_error records", async () => {
		harness = await RpcHarness.start({
			loader: {
				extensionFactories: [
					(pi: ExtensionAPI) =>
						pi.on("agent_start", () => {
							throw new Error("handler broke");
						}),
				],
			},
		});
		harness.faux.setResponses([fauxAssistantMessage("fine")]);
		const settled = harness.waitFor((r) => r.type === "agent_settled");
		await harness.data({ type: "prompt", message: "go" });
		await settled;
		const error = harness.records.find((r) => r.type === "extension_error");
		expect(error).toMatchObject({ type: "extension_error", event: "agent_start", error: "handler broke" });
		expect(typeof error?.extensionPath).toBe("string");
	});

	it("a client that stops reading stalls the run until it resumes", async () => {
		const { RawWriter } = await import("../../src/modes/shared/index.js");
		let blocked = false;
		let writes = 0;
		const withheld: (() => void)[] = [];
		let deliver: (line: string) => void = () => {};
		const writer = new RawWriter({
			write: (chunk, callback) => {
				writes++;
				for (const line of chunk.split("\n").filter((l) => l !== "")) deliver(line);
				if (blocked) withheld.push(() => callback());
				else callback();
			},
		});
		harness = await RpcHarness.start({}, writer);
		const h = harness;
		deliver = (line) => h.receive(line);
		// Far more output than the writer may hold for an unacknowledged reader.
		harness.faux.setResponses([fauxAssistantMessage("a long answer ".repeat(20_000))]);
		const before = harness.records.length;
		blocked = true;
		writes = 0;
		harness.writeLine(JSON.stringify({ id: "p", type: "prompt", message: "go" }));
		await harness.waitFor(() => true, before);
		// The first write is never acknowledged; spin the event loop so an unthrottled agent would finish.
		for (let i = 0; i < 50; i++) await new Promise<void>((resolve) => setImmediate(resolve));
		const persisted = () =>
			harness?.runtime.session.sessionManager
				.getEntries()
				.some((entry) => entry.type === "message" && entry.message.role === "assistant");
		expect(persisted()).toBe(false);
		expect(writes).toBe(1);
		const settled = harness.waitFor((r) => r.type === "agent_settled");
		blocked = false;
		for (const callback of withheld.splice(0)) callback();
		await settled;
		expect(persisted()).toBe(true);
	});
});

describe("RPC bash", () => {
	it("streams bash_execution_update with the command id and answers with a BashResult", async () => {
		harness = await RpcHarness.start();
		const response = await harness.send({ id: "b1", type: "bash", command: "printf 'one\\ntwo\\n'" });
		expect(response).toMatchObject({ id: "b1", type: "response", command: "bash", success: true });
		expect(response.data).toEqual({ output: "one\ntwo\n", exitCode: 0, cancelled: false, truncated: false });
		const updates = harness.records.filter((r) => r.type === "bash_execution_update");
		expect(updates.length).toBeGreaterThan(0);
		for (const update of updates) expect(Object.keys(update).sort()).toEqual(["delta", "id", "type"]);
		expect(updates.map((u) => u.delta).join("")).toBe("one\ntwo\n");
		expect(updates.every((u) => u.id === "b1")).toBe(true);
		expect((await harness.send({ type: "bash", command: "exit 3" })).data.exitCode).toBe(3);
	});

	it("abort_bash cancels a running command: cancelled:true and no exitCode on the wire", async () => {
		harness = await RpcHarness.start();
		const started = harness.waitFor((r) => r.type === "bash_execution_update" && r.id === "long");
		const result = harness.send({ id: "long", type: "bash", command: "echo started; sleep 30" });
		await started;
		expect((await harness.send({ type: "abort_bash" })).success).toBe(true);
		const response = await result;
		expect(response.data.cancelled).toBe(true);
		expect(response.data).not.toHaveProperty("exitCode");
		const line = harness.rawLines.find((l) => l.includes('"id":"long","type":"response"'));
		expect(line).not.toContain("exitCode");
	});

	it("bash output reaches the next prompt's context unless excludeFromContext", async () => {
		harness = await RpcHarness.start();
		const contexts: string[] = [];
		const capture = (context: { messages: { role: string; content: unknown }[] }) => {
			contexts.push(JSON.stringify(context.messages));
			return fauxAssistantMessage("ok");
		};
		await harness.data({ type: "bash", command: "echo visible-output" });
		await harness.data({ type: "bash", command: "echo hidden-output", excludeFromContext: true });
		harness.faux.setResponses([capture as never]);
		const settled = harness.waitFor((r) => r.type === "agent_settled");
		await harness.data({ type: "prompt", message: "what ran?" });
		await settled;
		expect(contexts[0]).toContain("visible-output");
		expect(contexts[0]).toContain("Ran `echo visible-output`");
		expect(contexts[0]).not.toContain("hidden-output");
	});
});

describe("RPC session stats and export", () => {
	it("get_session_stats counts messages and tokens over the session", async () => {
		harness = await RpcHarness.start();
		harness.faux.setResponses([fauxAssistantMessage("hello")]);
		const settled = harness.waitFor((r) => r.type === "agent_settled");
		await harness.data({ type: "prompt", message: "hi" });
		await settled;
		const stats = await harness.data({ type: "get_session_stats" });
		expect(stats).not.toHaveProperty("sessionFile");
		expect(stats).toMatchObject({ userMessages: 1, assistantMessages: 1, toolCalls: 0, toolResults: 0 });
		expect(Object.keys(stats.tokens).sort()).toEqual(["cacheRead", "cacheWrite", "input", "output", "total"]);
		expect(typeof stats.cost).toBe("number");
		expect(stats.contextUsage).toHaveProperty("contextWindow");
	});

	it("export_html writes a file and returns its absolute path", async () => {
		harness = await RpcHarness.start();
		const { join } = await import("node:path");
		const { readFileSync } = await import("node:fs");
		const target = join(harness.cwd, "out.html");
		const { path } = await harness.data({ type: "export_html", outputPath: target });
		expect(path).toBe(target);
		expect(readFileSync(path, "utf8")).toContain("<html");
	});
});

describe("RPC stalls are not leaks", () => {
	it("a held run keeps isStreaming true until released", async () => {
		harness = await RpcHarness.start();
		const hold = gate();
		harness.faux.setResponses([
			async () => {
				await hold.wait();
				return fauxAssistantMessage("done");
			},
		]);
		await harness.data({ type: "prompt", message: "go" });
		await hold.started;
		expect((await harness.data({ type: "get_state" })).isStreaming).toBe(true);
		const settled = harness.waitFor((r) => r.type === "agent_settled");
		hold.open();
		await settled;
		expect((await harness.data({ type: "get_state" })).isStreaming).toBe(false);
	});
});
