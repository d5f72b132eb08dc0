import { fauxAssistantMessage } from "@tau/ai";
import { afterEach, describe, expect, it } from "vitest";
import { InteractiveHarness } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

function bashMessages(h: InteractiveHarness) {
	return h.runtime.session.sessionManager
		.getEntries()
		.flatMap((entry) => (entry.type === "message" && entry.message.role === "bashExecution" ? [entry.message] : []));
}

describe("user shell commands", () => {
	it("!cmd shows the output and records it as context for the next prompt; !!cmd is excluded", async () => {
		harness = await InteractiveHarness.start();
		harness.submit("!echo hi-from-shell");
		await harness.until(() => bashMessages(harness!).length === 1);
		let screen = await harness.screen();
		expect(screen).toContain("$ echo hi-from-shell");
		expect(screen).toContain("hi-from-shell");
		expect(bashMessages(harness)[0]).toMatchObject({ command: "echo hi-from-shell", output: "hi-from-shell\n" });
		expect(bashMessages(harness)[0]?.excludeFromContext).toBeUndefined();

		harness.submit("!!echo private-output");
		await harness.until(() => bashMessages(harness!).length === 2);
		screen = await harness.screen();
		expect(screen).toContain("(not sent to the model)");
		expect(bashMessages(harness)[1]?.excludeFromContext).toBe(true);

		let seen = "";
		harness.faux.setResponses([
			(context) => {
				seen = JSON.stringify(context.messages);
				return fauxAssistantMessage("ok");
			},
		]);
		const since = harness.eventCount;
		harness.submit("what did I run?");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		expect(seen).toContain("hi-from-shell");
		expect(seen).not.toContain("private-output");
	});

	it("a second ! while one runs warns and puts the text back", async () => {
		harness = await InteractiveHarness.start();
		harness.submit("!sleep 30");
		await harness.until(async () => (await harness!.screen()).includes("Running…"));
		harness.submit("!echo second");
		const screen = await harness.screen();
		expect(screen).toContain("A bash command is already running. Press Esc to cancel it first.");
		expect(harness.mode.editor.getText()).toBe("!echo second");
		harness.mode.editor.setText("");
		harness.terminal.press("\x1b");
		await harness.until(() => bashMessages(harness!).length === 1);
		expect(bashMessages(harness)[0]?.cancelled).toBe(true);
	});
});
