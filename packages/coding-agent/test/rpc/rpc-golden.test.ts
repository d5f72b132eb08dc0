import { fauxAssistantMessage } from "@tau/ai";
import { afterEach, describe, expect, it } from "vitest";
import { RpcHarness } from "./harness.js";

/**
 * Golden response records: the exact wire shape of every command's response (docs/design/rpc.md#responses),
 * so a pi-compatible client sees the same keys in the same places.
 */

let harness: RpcHarness | undefined;
afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

const NO_DATA: Record<string, Record<string, unknown>> = {
	abort: {},
	set_thinking_level: { level: "off" },
	set_steering_mode: { mode: "all" },
	set_follow_up_mode: { mode: "one-at-a-time" },
	set_auto_compaction: { enabled: false },
	set_auto_retry: { enabled: false },
	abort_retry: {},
	abort_bash: {},
	set_session_name: { name: "golden" },
};

describe("RPC golden response records", () => {
	it("commands without result data answer exactly {id,type,command,success} in that order", async () => {
		harness = await RpcHarness.start();
		for (const [command, fields] of Object.entries(NO_DATA)) {
			const id = `g-${command}`;
			await harness.send({ id, type: command, ...fields });
			const line = harness.rawLines.find((l) => l.startsWith(`{"id":"${id}"`));
			expect(line).toBe(`{"id":"${id}","type":"response","command":"${command}","success":true}`);
		}
	});

	it("commands with data carry exactly the documented keys", async () => {
		harness = await RpcHarness.start({ settings: { compaction: { keepRecentTokens: 1 } }, persisted: true });
		for (const n of [1, 2]) {
			harness.faux.setResponses([fauxAssistantMessage(`answer ${n} ${"word ".repeat(100)}`)]);
			const settled = harness.waitForCount((r) => r.type === "agent_settled", n);
			await harness.data({ type: "prompt", message: `question ${n} ${"text ".repeat(100)}` });
			await settled;
		}
		const keysOf = async (command: Record<string, unknown>) => {
			const response = await harness!.send(command);
			expect(response.success, JSON.stringify(response)).toBe(true);
			expect(Object.keys(response)).toEqual(["id", "type", "command", "success", "data"]);
			return Object.keys(response.data).sort();
		};
		expect(await keysOf({ type: "steer", message: "s" })).toEqual(["disposition"]);
		expect(await keysOf({ type: "follow_up", message: "f" })).toEqual(["disposition"]);
		expect(await keysOf({ type: "clear_queue" })).toEqual(["followUp", "steering"]);
		expect(await keysOf({ type: "get_messages" })).toEqual(["messages"]);
		expect(await keysOf({ type: "get_available_models" })).toEqual(["models"]);
		expect(await keysOf({ type: "get_available_thinking_levels" })).toEqual(["levels"]);
		expect(await keysOf({ type: "get_fork_messages" })).toEqual(["messages"]);
		expect(await keysOf({ type: "get_entries" })).toEqual(["entries", "leafId"]);
		expect(await keysOf({ type: "get_tree" })).toEqual(["leafId", "tree"]);
		expect(await keysOf({ type: "get_last_assistant_text" })).toEqual(["text"]);
		expect(await keysOf({ type: "get_commands" })).toEqual(["commands"]);
		expect(await keysOf({ type: "bash", command: "true" })).toEqual(["cancelled", "exitCode", "output", "truncated"]);
		expect(await keysOf({ type: "export_html" })).toEqual(["path"]);
		expect(await keysOf({ type: "get_session_stats" })).toEqual([
			"assistantMessages",
			"contextUsage",
			"cost",
			"sessionFile",
			"sessionId",
			"tokens",
			"toolCalls",
			"toolResults",
			"totalMessages",
			"userMessages",
		]);
		const state = await keysOf({ type: "get_state" });
		expect(state).toContain("sessionFile");
		const file = (await harness.data({ type: "get_state" })).sessionFile as string;
		expect(await keysOf({ type: "clone" })).toEqual(["cancelled"]);
		expect(await keysOf({ type: "switch_session", sessionPath: file })).toEqual(["cancelled"]);
		const forkable = (await harness.data({ type: "get_fork_messages" })).messages[1].entryId;
		expect(await keysOf({ type: "fork", entryId: forkable })).toEqual(["cancelled", "text"]);
		expect(await keysOf({ type: "new_session" })).toEqual(["cancelled"]);
	});

	it("a prompt response is {id,type,command,success,data:{disposition}}", async () => {
		harness = await RpcHarness.start();
		harness.faux.setResponses([fauxAssistantMessage("ok")]);
		const settled = harness.waitFor((r) => r.type === "agent_settled");
		await harness.send({ id: "p1", type: "prompt", message: "hi" });
		await settled;
		expect(harness.rawLines.find((l) => l.startsWith('{"id":"p1"'))).toBe(
			'{"id":"p1","type":"response","command":"prompt","success":true,"data":{"disposition":"started"}}',
		);
		expect(harness.rawLines).toContain('{"type":"agent_settled","aborted":false}');
		expect(harness.rawLines).toContain('{"type":"agent_start"}');
	});
});
