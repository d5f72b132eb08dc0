import { fauxAssistantMessage } from "@tau/ai";
import { describe, expect, it } from "vitest";
import { createHarness, eventTypes } from "./harness.js";

describe("AgentSession.prompt", () => {
	it("runs a simple prompt in the specified event order and resolves after agent_settled", async () => {
		const h = await createHarness();
		h.faux.setResponses([fauxAssistantMessage("hello there")]);
		await h.session.prompt("hi");
		expect(eventTypes(h.events).filter((type) => type !== "message_update" && type !== "entry_appended")).toEqual([
			"agent_start",
			"turn_start",
			"message_start(system)",
			"message_end(system)",
			"message_start(user)",
			"message_end(user)",
			"message_start(assistant)",
			"message_end(assistant)",
			"turn_end",
			"agent_end",
			"agent_settled",
		]);
		expect(h.session.getLastAssistantText()).toBe("hello there");
		expect(h.session.isStreaming).toBe(false);
	});
});
