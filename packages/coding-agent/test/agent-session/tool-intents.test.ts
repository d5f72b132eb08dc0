import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import { SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { INTERRUPTED_TEXT, NEVER_STARTED_TEXT, TOOL_INTENT_TYPE } from "../../src/sdk/index.js";
import { tempDir } from "../support/isolated-session.js";
import { createHarness, textOfMessage } from "./harness.js";

/** A persisted session that "crashed" after the assistant asked for tools: calls without results. */
function crashedSession(cwd: string, intents: { id: string; name: string; replay: "safe" | "never" }[]) {
	const sessionDir = tempDir("tau-sessions-");
	const manager = SessionManager.create(cwd, sessionDir);
	manager.appendMessage({ role: "user", content: "do things", timestamp: Date.now() });
	manager.appendMessage({
		...fauxAssistantMessage(
			[
				fauxToolCall("bash", { command: "sleep 30 && touch done" }, { id: "call-bash" }),
				fauxToolCall("read", { path: "notes.txt" }, { id: "call-read" }),
				fauxToolCall("write", { path: "x.txt", content: "x" }, { id: "call-write" }),
			],
			{ stopReason: "toolUse" },
		),
		provider: "faux",
		model: "faux-1",
	});
	for (const intent of intents) {
		manager.appendCustomEntry(TOOL_INTENT_TYPE, {
			toolCallId: intent.id,
			toolName: intent.name,
			replay: intent.replay,
		});
	}
	const file = manager.getSessionFile()!;
	manager.dispose();
	return file;
}

describe("tool-intent records", () => {
	it("records the intent of a call after the tool_call gate, before its result", async () => {
		const h = await createHarness();
		h.faux.setResponses([
			fauxAssistantMessage(fauxToolCall("bash", { command: "echo hi" }, { id: "c1" }), { stopReason: "toolUse" }),
			fauxAssistantMessage("done"),
		]);
		await h.session.prompt("run it");
		const branch = h.sessionManager.getBranch();
		const intentIndex = branch.findIndex((entry) => entry.type === "custom" && entry.customType === TOOL_INTENT_TYPE);
		const resultIndex = branch.findIndex((entry) => entry.type === "message" && entry.message.role === "toolResult");
		expect(intentIndex).toBeGreaterThan(0);
		expect(intentIndex).toBeLessThan(resultIndex);
		expect(branch[intentIndex]).toMatchObject({ data: { toolCallId: "c1", toolName: "bash", replay: "never" } });
		// Intents never reach the model.
		expect(JSON.stringify(h.requests.at(-1))).not.toContain(TOOL_INTENT_TYPE);
	});

	it("on resume, interrupted calls get a persisted 'outcome unknown' result and a safe read is re-run", async () => {
		const cwd = tempDir();
		writeFileSync(join(cwd, "notes.txt"), "the notes content\n");
		const file = crashedSession(cwd, [
			{ id: "call-bash", name: "bash", replay: "never" },
			{ id: "call-read", name: "read", replay: "safe" },
		]);
		const h = await createHarness({ cwd, sessionManager: SessionManager.open(file) });
		const results = () =>
			h.sessionManager
				.getBranch()
				.flatMap((entry) =>
					entry.type === "message" && entry.message.role === "toolResult" ? [entry.message] : [],
				);
		// Opening the session answers the unsafe calls at once (persisted entries, not request-time patches).
		const onOpen = results();
		expect(onOpen.map((result) => result.toolCallId)).toEqual(["call-bash", "call-write"]);
		expect(onOpen[0]).toMatchObject({ isError: true, details: { interrupted: true } });
		expect(textOfMessage(onOpen[0]!)).toBe(INTERRUPTED_TEXT);
		// No intent was recorded for the write: it never started.
		expect(textOfMessage(onOpen[1]!)).toBe(NEVER_STARTED_TEXT);

		h.faux.setResponses([fauxAssistantMessage("resumed")]);
		await h.session.prompt("continue");
		const read = results().find((result) => result.toolCallId === "call-read")!;
		expect(read.isError).toBe(false);
		expect(textOfMessage(read)).toContain("the notes content");
		// Every call is answered before the user's next message reaches the model.
		const request = h.requests[0]!.messages.map((message) => message.role).filter((role) => role !== "system");
		expect(request.slice(-5)).toEqual(["assistant", "toolResult", "toolResult", "toolResult", "user"]);

		// The repaired file reopens cleanly: nothing left to repair.
		const again = await createHarness({ cwd, sessionManager: SessionManager.open(file) });
		expect(again.sessionManager.getEntries().length).toBe(h.sessionManager.getEntries().length);
	});

	it("calls of a failed or aborted response are not answered (requests drop those responses)", async () => {
		const cwd = tempDir();
		const manager = SessionManager.inMemory(cwd);
		manager.appendMessage({ role: "user", content: "go", timestamp: Date.now() });
		manager.appendMessage({
			...fauxAssistantMessage(fauxToolCall("bash", { command: "x" }, { id: "partial" }), {
				stopReason: "error",
				errorMessage: "stream cut",
			}),
			provider: "faux",
			model: "faux-1",
		});
		const h = await createHarness({ cwd, sessionManager: manager });
		expect(
			h.sessionManager.getBranch().some((entry) => entry.type === "message" && entry.message.role === "toolResult"),
		).toBe(false);
	});

	it("an abort during a tool is not a crash: the normal aborted result is recorded", async () => {
		const h = await createHarness();
		h.faux.setResponses([
			fauxAssistantMessage(fauxToolCall("bash", { command: "sleep 30" }, { id: "slow" }), { stopReason: "toolUse" }),
		]);
		h.session.subscribe((event) => {
			if (event.type === "tool_execution_start") void h.session.abort();
		});
		await h.session.prompt("wait");
		const result = h.sessionManager
			.getBranch()
			.find((entry) => entry.type === "message" && entry.message.role === "toolResult");
		expect(result).toBeDefined();
		expect(JSON.stringify(result)).not.toContain(INTERRUPTED_TEXT);
	});
});
