import { SessionManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { findUnansweredCalls, TOOL_INTENT_TYPE } from "../../src/core/agent-session/tool-intents.js";
import { assistant, toolCallAssistant, toolResult, user } from "../session/helpers.js";

describe("tool calls without a result on the branch", () => {
	it("pairs results with calls wherever they stand, skips failed answers and attaches recorded intents", () => {
		const manager = SessionManager.inMemory("/w");
		manager.appendMessage(user("go"));
		// A result may precede its call on the branch (an imported or repaired file): it still answers it.
		manager.appendMessage(toolResult("early", "done early"));
		manager.appendCustomEntry(TOOL_INTENT_TYPE, { toolCallId: "late", toolName: "read", replay: "safe" });
		manager.appendMessage(
			toolCallAssistant([
				{ id: "early", name: "read", arguments: {} },
				{ id: "open", name: "bash", arguments: {} },
				{ id: "late", name: "read", arguments: {} },
			]),
		);
		manager.appendMessage(
			toolCallAssistant([{ id: "failed", name: "bash", arguments: {} }], { stopReason: "error" }),
		);
		manager.appendMessage(
			toolCallAssistant([{ id: "aborted", name: "bash", arguments: {} }], { stopReason: "aborted" }),
		);
		manager.appendMessage(assistant("after"));
		const unanswered = findUnansweredCalls(manager.getBranch());
		expect(unanswered.map(({ call, intent }) => [call.id, intent?.replay])).toEqual([
			["open", undefined],
			["late", "safe"],
		]);
	});
});
