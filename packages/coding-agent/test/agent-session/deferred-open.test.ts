import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage } from "@tau/ai";
import { afterEach, describe, expect, it } from "vitest";
import { SessionManager } from "../../src/core/session/index.js";
import { assistant, toolCallAssistant, user } from "../session/helpers.js";
import { createFauxRuntime } from "../support/faux-runtime.js";

// A session over a file opened with unread bodies applies its whole branch only when something needs
// it (docs/design/session-runtime.md#opening-a-long-session); whatever needs it gets the same answers.

const roots: string[] = [];
afterEach(() => {
	for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A runtime over a session of `pairs` answered questions and one unanswered bash call, opened as the CLI opens it. */
async function openedLong(pairs: number, deferBodies: boolean) {
	const root = mkdtempSync(join(tmpdir(), "tau-deferred-open-"));
	roots.push(root);
	const cwd = join(root, "project");
	mkdirSync(cwd);
	const manager = SessionManager.create(cwd, join(root, "sessions"));
	for (let i = 0; i < pairs; i++) {
		manager.appendMessage(user(`question ${i}`));
		manager.appendMessage(assistant(`answer ${i}`));
	}
	manager.appendMessage(toolCallAssistant([{ id: "c1", name: "bash", arguments: { command: "echo hi" } }]));
	const sessionFile = manager.getSessionFile()!;
	manager.dispose();
	return createFauxRuntime({ cwd, agentDir: join(root, "agent"), sessionFile, deferBodies });
}

describe("a session opened with unread bodies", () => {
	it("waits to apply its branch until asked, then matches an eager open", async () => {
		const eager = await openedLong(150, false);
		const deferred = await openedLong(150, true);
		expect(eager.runtime.session.isOpening).toBe(false);
		const session = deferred.runtime.session;
		expect(session.isOpening).toBe(true);
		// Nothing is repaired or loaded into the agent yet.
		const lastMessage = session.sessionManager.getBranch().findLast((entry) => entry.type === "message");
		expect(lastMessage?.type === "message" && lastMessage.message.role).toBe("assistant");
		expect(session.agent.state.messages).toHaveLength(0);

		expect(session.getContextUsage()).toEqual(eager.runtime.session.getContextUsage());
		expect(session.isOpening).toBe(false);
		expect(session.getSessionStats()).toMatchObject({
			userMessages: 150,
			assistantMessages: 151,
			toolResults: 1,
			toolCalls: 1,
		});
		const strip = (messages: readonly { role: string; timestamp?: unknown }[]) =>
			messages.map(({ timestamp: _, ...rest }) => rest);
		expect(strip(session.agent.state.messages)).toEqual(strip(eager.runtime.session.agent.state.messages));
		expect(session.getActiveToolNames()).toEqual(eager.runtime.session.getActiveToolNames());
	});

	it("applies its branch before a prompt: the request carries the whole context", async () => {
		const { runtime, faux } = await openedLong(150, true);
		let sent = 0;
		faux.setResponses([
			(context) => {
				sent = context.messages.filter((message) => message.role !== "system").length;
				return fauxAssistantMessage("reply");
			},
		]);
		expect(runtime.session.isOpening).toBe(true);
		await runtime.session.prompt("one more");
		// 150 pairs, the call, its repaired result and the prompt.
		expect(sent).toBe(303);
	});
});
