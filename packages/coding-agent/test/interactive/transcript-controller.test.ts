import type { AgentMessage } from "@tau/agent";
import { type AssistantMessage, fauxAssistantMessage, fauxText, fauxToolCall } from "@tau/ai";
import { KeybindingsManager, stripTerminalSequences } from "@tau/tui";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChatTranscript } from "../../src/modes/interactive/components/chat-transcript.js";
import { KeyActions } from "../../src/modes/interactive/controller/key-actions.js";
import { appKeybindingDefinitions } from "../../src/modes/interactive/keybindings/app-keybindings.js";
import { transcriptFixture } from "./transcript-fixture.js";

const setup = () => transcriptFixture();

function streaming(
	content: Parameters<typeof fauxAssistantMessage>[0],
	stopReason: AssistantMessage["stopReason"] = "toolUse",
) {
	return fauxAssistantMessage(content, { stopReason });
}

afterEach(() => {
	vi.useRealTimers();
});

describe("event → component mapping", () => {
	it("creates tool components while arguments stream, keyed by tool-call id", () => {
		const { controller, chat, text } = setup();
		const first = fauxToolCall("bash", { command: "echo a" }, { id: "t1" });
		const second = fauxToolCall("bash", { command: "echo b" }, { id: "t2" });
		controller.handle({ type: "message_start", message: streaming([]) });
		controller.handle({
			type: "message_update",
			message: streaming([first, { ...second, arguments: { command: "ec" } }]),
			assistantMessageEvent: undefined as never,
		});
		expect(text()).toContain("$ echo a");
		expect(text()).toContain("$ ec");
		const count = chat.children.length;
		controller.handle({
			type: "message_update",
			message: streaming([first, second]),
			assistantMessageEvent: undefined as never,
		});
		expect(chat.children.length).toBe(count);
		expect(text()).toContain("$ echo b");
		controller.handle({ type: "message_end", message: streaming([first, second]) });
		controller.handle({ type: "tool_execution_start", toolCallId: "t2", toolName: "bash", args: second.arguments });
		controller.handle({ type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: first.arguments });
		controller.handle({
			type: "tool_execution_end",
			toolCallId: "t2",
			toolName: "bash",
			result: { content: [{ type: "text", text: "output-of-b" }] },
			isError: false,
		});
		controller.handle({
			type: "tool_execution_end",
			toolCallId: "t1",
			toolName: "bash",
			result: { content: [{ type: "text", text: "output-of-a" }] },
			isError: false,
		});
		const lines = text().split("\n");
		const a = lines.findIndex((line) => line.includes("$ echo a"));
		const b = lines.findIndex((line) => line.includes("$ echo b"));
		const outA = lines.findIndex((line) => line.includes("output-of-a"));
		const outB = lines.findIndex((line) => line.includes("output-of-b"));
		expect(a).toBeLessThan(outA);
		expect(outA).toBeLessThan(b);
		expect(b).toBeLessThan(outB);
	});

	it("nested tool executions (with parentToolCallId) create no components", () => {
		const { controller, chat } = setup();
		const before = chat.children.length;
		controller.handle({
			type: "tool_execution_start",
			toolCallId: "inner",
			toolName: "read",
			args: {},
			parentToolCallId: "outer",
		} as never);
		expect(chat.children.length).toBe(before);
	});

	it("an aborted reply marks pending tool components with the abort text", () => {
		const { controller, text } = setup();
		const call = fauxToolCall("read", { path: "a.txt" }, { id: "r1" });
		controller.handle({ type: "message_start", message: streaming([]) });
		controller.handle({
			type: "message_update",
			message: streaming([call]),
			assistantMessageEvent: undefined as never,
		});
		controller.handle({ type: "message_end", message: streaming([call], "aborted") });
		const lines = text()
			.split("\n")
			.filter((line) => line.includes("Operation aborted"));
		expect(lines.length).toBe(2);
	});

	it("a codemode call shows its script and each nested call with its outcome and duration, live and at the end", () => {
		const { controller, text } = setup();
		const code = "const a = await tools.mcp__docs__search({ q: 'x' });\nawait tools.read({ path: 'gone.txt' });";
		const call = fauxToolCall("codemode", { code }, { id: "cm1" });
		controller.handle({ type: "message_start", message: streaming([]) });
		controller.handle({ type: "message_end", message: streaming([call]) });
		controller.handle({ type: "tool_execution_start", toolCallId: "cm1", toolName: "codemode", args: { code } });
		const running = { id: "cm1/1", name: "mcp__docs__search", args: '{"q":"x"}', status: "running" };
		controller.handle({
			type: "tool_execution_update",
			toolCallId: "cm1",
			toolName: "codemode",
			args: { code },
			partialResult: { content: [], details: { calls: [running] } },
		});
		expect(text()).toContain("const a = await tools.mcp__docs__search({ q: 'x' });");
		expect(text()).toContain('… mcp__docs__search {"q":"x"}');
		expect(text()).not.toContain('{"code"');
		controller.handle({
			type: "tool_execution_end",
			toolCallId: "cm1",
			toolName: "codemode",
			result: {
				content: [{ type: "text", text: "Script failed" }],
				details: {
					calls: [
						{ ...running, status: "ok", durationMs: 109 },
						{
							id: "cm1/2",
							name: "read",
							args: '{"path":"gone.txt"}',
							status: "error",
							durationMs: 1500,
							error: "ENOENT: gone.txt",
						},
					],
				},
			},
			isError: true,
		});
		const shown = text();
		expect(shown).toContain('✓ mcp__docs__search {"q":"x"} 109ms');
		expect(shown).toContain('✗ read {"path":"gone.txt"} 1.5s');
		expect(shown).toContain("ENOENT: gone.txt");
		expect(shown.indexOf("✓ mcp__docs__search")).toBeLessThan(shown.indexOf("Script failed"));
	});

	it("the edit tool shows its diff once the arguments are complete", () => {
		const { controller, text } = setup();
		const call = fauxToolCall(
			"edit",
			{ path: "f.ts", edits: [{ oldText: "const a = 1;", newText: "const a = 2;" }] },
			{ id: "e1" },
		);
		controller.handle({ type: "message_start", message: streaming([]) });
		controller.handle({
			type: "message_update",
			message: streaming([call]),
			assistantMessageEvent: undefined as never,
		});
		expect(text()).not.toContain("+const a = 2;");
		controller.handle({ type: "message_end", message: streaming([call]) });
		expect(text()).toContain("-const a = 1;");
		expect(text()).toContain("+const a = 2;");
	});

	it("the retry indicator counts down; compaction indicators name their reason", () => {
		vi.useFakeTimers();
		const { controller, status } = setup();
		controller.handle({
			type: "auto_retry_start",
			attempt: 1,
			maxAttempts: 3,
			delayMs: 3000,
			errorMessage: "overloaded",
		});
		expect(status.text).toContain("Retrying (1/3) in 3s... (Escape to cancel)");
		vi.advanceTimersByTime(1000);
		expect(status.text).toContain("Retrying (1/3) in 2s...");
		controller.handle({ type: "auto_retry_end", success: true, attempt: 1 });
		expect(status.text).toBeUndefined();
		controller.handle({ type: "compaction_start", reason: "manual" });
		expect(status.text).toContain("Compacting context... (Escape to cancel)");
		controller.handle({ type: "compaction_start", reason: "overflow" });
		expect(status.text).toContain("Context overflow detected, Auto-compacting... (Escape to cancel)");
		controller.handle({ type: "compaction_start", reason: "threshold" });
		expect(stripTerminalSequences(status.text ?? "")).toMatch(/^. Auto-compacting\.\.\. \(Escape to cancel\)$/);
		status.clearIndicator();
	});

	it("a failed retry and a cancelled manual compaction are reported in the chat", () => {
		const { controller, text } = setup();
		controller.handle({ type: "auto_retry_end", success: false, attempt: 3, finalError: "still down" });
		controller.handle({
			type: "compaction_end",
			reason: "manual",
			result: undefined,
			aborted: true,
			willRetry: false,
		});
		expect(text()).toContain("Retry failed after 3 attempts: still down");
		expect(text()).toContain("Compaction cancelled");
	});
});

describe("Escape priorities", () => {
	it("aborts a retry first, then a compaction", () => {
		const session = {
			isRetrying: true,
			isCompacting: true,
			isStreaming: true,
			abortRetry: vi.fn(),
			abortCompaction: vi.fn(),
			abort: vi.fn(async () => {}),
		};
		const actions = new KeyActions({
			session: session as never,
			keys: new KeybindingsManager(appKeybindingDefinitions("linux", {})),
			now: () => 0,
			getEditorText: () => "",
		} as never);
		expect(actions.handle("\x1b")).toBe(true);
		expect(session.abortRetry).toHaveBeenCalledTimes(1);
		expect(session.abortCompaction).not.toHaveBeenCalled();
		session.isRetrying = false;
		actions.handle("\x1b");
		expect(session.abortCompaction).toHaveBeenCalledTimes(1);
	});
});

describe("text rendering", () => {
	it("renders assistant markdown without the markup", () => {
		const { controller, text } = setup();
		controller.handle({ type: "message_start", message: streaming([fauxText("**bold** words")], "stop") });
		controller.handle({ type: "message_end", message: streaming([fauxText("**bold** words")], "stop") });
		expect(text()).toContain("bold words");
		expect(text()).not.toContain("**");
	});
});

describe("a resumed history", () => {
	/** `pairs` questions, each answered by a bash call (ids reused every 50 calls) and its result. */
	function history(pairs: number): AgentMessage[] {
		const messages: AgentMessage[] = [];
		for (let i = 0; i < pairs; i++) {
			const call = fauxToolCall("bash", { command: `echo ${i}` }, { id: `call-${i % 50}` });
			messages.push({ role: "user", content: `question ${i}`, timestamp: 0 });
			messages.push(streaming([call]));
			messages.push({
				role: "toolResult",
				toolCallId: call.id,
				toolName: "bash",
				content: [{ type: "text", text: `result-${i}` }],
				isError: false,
				timestamp: 0,
			});
		}
		return messages;
	}

	it("builds views only for the messages the first frame draws, and each call later shows its own result", async () => {
		const chat = new ChatTranscript({
			firstFrameLines: () => 20,
			reveal: () => "progressive",
			requestRender: () => {},
		});
		const { controller } = transcriptFixture({ chat });
		const messages = history(300);
		controller.renderHistory(messages);
		expect(chat.children).toHaveLength(0);
		const first = chat.render(80).map(stripTerminalSequences).join("\n");
		expect(first).toContain("result-299");
		expect(chat.children.length).toBeLessThan(100);
		while (chat.headPending) await new Promise((resolve) => setImmediate(resolve));
		expect(chat.children).toHaveLength(900);
		const lines = chat.render(80).map(stripTerminalSequences);
		// Each call's result is the one that followed it, though the call id came back every 50 calls.
		let at = 0;
		for (let i = 0; i < 300; i++) {
			at = lines.findIndex((line, index) => index > at && line.includes(`$ echo ${i}`));
			expect(lines[at + 1 + lines.slice(at + 1).findIndex((line) => line.includes("result-"))]).toContain(
				`result-${i}`,
			);
		}
		// The eager transcript (no lazy options) is the same text.
		const eager = transcriptFixture();
		eager.controller.renderHistory(messages);
		expect(eager.text()).toBe(lines.join("\n"));
	});

	/** A chat shown from the last 60 messages of `messages`, with a startup notice after them. */
	async function shownFromEnd(messages: AgentMessage[]) {
		const chat = new ChatTranscript({
			firstFrameLines: () => 20,
			reveal: () => "progressive",
			requestRender: () => {},
		});
		const { controller } = transcriptFixture({ chat });
		controller.renderHistory(messages.slice(-60));
		controller.notice("warning", "startup notice");
		expect(chat.render(80).map(stripTerminalSequences).join("\n")).toContain("result-299");
		return { chat, controller };
	}

	async function drawnText(chat: ChatTranscript): Promise<string[]> {
		chat.render(80);
		while (chat.headPending) await new Promise((resolve) => setImmediate(resolve));
		return chat.render(80).map(stripTerminalSequences);
	}

	it("completes a history shown from its end once the whole is read, keeping the notices after it", async () => {
		const messages = history(300);
		const { chat, controller } = await shownFromEnd(messages);
		const shownViews = [...chat.children];
		controller.completeHistory(messages);
		const lines = await drawnText(chat);
		// The views drawn for the end stay; the earlier messages get theirs before them.
		for (const view of shownViews) expect(chat.children).toContain(view);
		expect(chat.children).toHaveLength(901);
		const eager = transcriptFixture();
		eager.controller.renderHistory(messages);
		eager.controller.notice("warning", "startup notice");
		expect(lines.join("\n")).toBe(eager.text());
	});

	it("renders anew, keeping the notices, when the whole history no longer ends as shown", async () => {
		const messages = history(300);
		const { chat, controller } = await shownFromEnd(messages);
		const answered = [...messages, fauxAssistantMessage("after the repair")];
		controller.completeHistory(answered);
		const lines = await drawnText(chat);
		expect(chat.children).toHaveLength(902);
		const eager = transcriptFixture();
		eager.controller.renderHistory(answered);
		eager.controller.notice("warning", "startup notice");
		expect(lines.join("\n")).toBe(eager.text());
	});
});
