import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage } from "@tau/ai";
import { stripTerminalSequences } from "@tau/tui";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentSession } from "../../src/core/agent-session/agent-session.js";
import { NEVER_STARTED_TEXT } from "../../src/core/agent-session/tool-intents.js";
import { SessionManager } from "../../src/core/session/index.js";
import { assistant, toolCallAssistant, user } from "../session/helpers.js";
import { InteractiveHarness, KeyTerminal } from "./harness.js";

// The interactive CLI opens a session with its message bodies unread; a long one shows its first
// frame from the branch's end and reads the rest right after (docs/design/session-runtime.md#opening-a-long-session).

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	vi.restoreAllMocks();
	await harness?.close();
	harness = undefined;
});

/** `pairs` answered questions (10 input tokens each), then whatever `end` appends. */
function longSession(pairs: number, end?: (manager: SessionManager) => void): string {
	const manager = SessionManager.create("/work", mkdtempSync(join(tmpdir(), "tau-long-session-")));
	for (let i = 0; i < pairs; i++) {
		manager.appendMessage(user(`question ${i}`));
		manager.appendMessage(assistant(`answer ${i}`));
	}
	end?.(manager);
	const file = manager.getSessionFile()!;
	manager.dispose();
	return file;
}

/** Replaces the body of the user message `text` with one that is cut short but keeps the line's shape. */
function cutBody(file: string, text: string): void {
	const lines = readFileSync(file, "utf8").split("\n");
	const index = lines.findIndex((line) => line.includes(`"content":"${text}"`));
	const entry = JSON.parse(lines[index]!);
	lines[index] =
		`{"type":"message","id":"${entry.id}","parentId":"${entry.parentId}","timestamp":"${entry.timestamp}",` +
		`"message":{"role":"user","content":"cut short}}`;
	writeFileSync(file, lines.join("\n"));
}

/** What the terminal had been sent whenever a session began reading the rest of its file. */
function outputAtOpening(): string[] {
	const start = vi.spyOn(KeyTerminal.prototype, "start");
	const finish = AgentSession.prototype.finishOpening;
	const outputs: string[] = [];
	vi.spyOn(AgentSession.prototype, "finishOpening").mockImplementation(function (this: AgentSession) {
		const terminal = start.mock.contexts[0] as KeyTerminal | undefined;
		if (this.isOpening && terminal) outputs.push(stripTerminalSequences(terminal.getRawOutput()));
		finish.call(this);
	});
	return outputs;
}

describe("opening a long session", () => {
	it("draws the branch's end first, then the whole history, the footer's totals and a full context", async () => {
		const outputs = outputAtOpening();
		harness = await InteractiveHarness.start({ sessionFile: longSession(100), deferBodies: true, rows: 20 });
		expect(outputs).toHaveLength(1);
		expect(outputs[0]).toContain("answer 99");
		expect(outputs[0]).toContain("faux-1");
		expect(outputs[0]).not.toMatch(/question 0(?!\d)/);
		expect(outputs[0]).not.toContain("↑1.0k");
		expect(harness.runtime.session.isOpening).toBe(false);
		expect(await harness.screen()).toContain("↑1.0k ↓500");
		await harness.until(async () => (await harness!.screen()).includes("question 0"));

		let sent = 0;
		harness.faux.appendResponses([
			(context) => {
				sent = context.messages.filter((message) => message.role !== "system").length;
				return fauxAssistantMessage("reply");
			},
		]);
		harness.submit("one more");
		await harness.until(() => sent > 0);
		expect(sent).toBe(201);
	});

	it("reports a body that does not parse and answers an interrupted call, as an eager open does", async () => {
		const file = longSession(200, (manager) => {
			manager.appendMessage(user("run it"));
			manager.appendMessage(toolCallAssistant([{ id: "c1", name: "bash", arguments: { command: "echo hi" } }]));
		});
		// One far back, one among the entries the first frame reads (but not in the last 64 lines).
		cutBody(file, "question 50");
		cutBody(file, "question 160");
		const copy = `${file}.copy.jsonl`;
		writeFileSync(copy, readFileSync(file));

		harness = await InteractiveHarness.start({ sessionFile: file, deferBodies: true, rows: 20 });
		const screen = await harness.screen();
		expect(screen).toContain("Skipped 2 unparseable line(s)");
		expect(screen).toContain(NEVER_STARTED_TEXT.slice(0, 40));
		const deferred = harness.runtime.session.messages;
		await harness.close();

		harness = await InteractiveHarness.start({ sessionFile: copy, rows: 20 });
		expect(harness.runtime.session.messages.map(({ timestamp: _, ...rest }) => rest)).toEqual(
			deferred.map(({ timestamp: _, ...rest }) => rest),
		);
		const texts = deferred.map((message) => (message.role === "user" ? message.content : undefined));
		expect(texts).not.toContain("question 160");
		expect(texts).toContain("question 161");
	});

	it("reads the whole session before extensions start: session_start sees the answered call", async () => {
		const file = longSession(100, (manager) => {
			manager.appendMessage(toolCallAssistant([{ id: "c1", name: "bash", arguments: { command: "echo hi" } }]));
		});
		let lastRole: string | undefined;
		harness = await InteractiveHarness.start({
			sessionFile: file,
			deferBodies: true,
			extension: (pi) => {
				pi.on("session_start", (_event, ctx) => {
					const last = ctx.sessionManager.getBranch().at(-1);
					lastRole = last?.type === "message" ? last.message.role : last?.type;
				});
			},
		});
		expect(lastRole).toBe("toolResult");
	});
});
