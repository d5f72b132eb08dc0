import { fauxAssistantMessage } from "@tau/ai";
import { describe, expect, it } from "vitest";
import { createHarness } from "../agent-session/harness.js";

describe("system prompt files in a session", () => {
	it("joins repeated --append-system-prompt texts with a blank line into one addendum section", async () => {
		const h = await createHarness({ loader: { appendSystemPrompt: ["First rule.", "Second rule."] } });
		expect(h.session.systemPrompt).toContain("<addendum>\nFirst rule.\n\nSecond rule.\n</addendum>");
		h.faux.setResponses([fauxAssistantMessage("ok")]);
		await h.session.prompt("hi");
		const system = h.requests[0]?.messages.find((message) => message.role === "system") as
			| { sections?: Record<string, string | null> }
			| undefined;
		expect(system?.sections?.addendum).toBe("<addendum>\nFirst rule.\n\nSecond rule.\n</addendum>");
	});
});
