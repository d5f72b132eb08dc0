import { existsSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage } from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { gatedStep, InteractiveHarness } from "./harness.js";

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

	it("a ! typed while the agent streams shows in the pending area and is recorded after the run", async () => {
		harness = await InteractiveHarness.start();
		const gate = gatedStep(fauxAssistantMessage("run finished"));
		harness.faux.setResponses([gate.step]);
		const since = harness.eventCount;
		harness.submit("long task");
		await gate.started;
		harness.submit("!echo during-the-run");
		await harness.until(async () => (await harness!.screen()).includes("$ echo during-the-run"));
		await harness.until(async () => !(await harness!.screen()).includes("Running…"));
		// Recording now would split the streaming turn; the message waits for the run to end.
		expect(bashMessages(harness)).toHaveLength(0);
		let screen = await harness.screen();
		const editorTop = screen.lastIndexOf("─".repeat(20), screen.lastIndexOf("─".repeat(20)) - 1);
		expect(screen.indexOf("$ echo during-the-run")).toBeLessThan(editorTop);

		gate.open();
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		await harness.until(() => bashMessages(harness!).length === 1);
		expect(harness.roles()).toEqual(["user", "assistant", "bashExecution"]);
		screen = await harness.screen();
		expect(screen.indexOf("run finished")).toBeLessThan(screen.indexOf("$ echo during-the-run"));
	});

	it("a user_bash handler's result is shown and recorded without running the command", async () => {
		harness = await InteractiveHarness.start({
			extension: (pi: ExtensionAPI) => {
				pi.on("user_bash", (event) =>
					event.command.startsWith("touch")
						? {
								result: {
									output: "handled remotely\n",
									exitCode: 0,
									cancelled: false,
									truncated: false,
								},
							}
						: undefined,
				);
			},
		});
		harness.submit("!touch marker");
		await harness.until(() => bashMessages(harness!).length === 1);
		expect(await harness.screen()).toContain("handled remotely");
		expect(bashMessages(harness)[0]).toMatchObject({ command: "touch marker", output: "handled remotely\n" });
		expect(existsSync(join(harness.cwd, "marker"))).toBe(false);
	});

	it("a throwing user_bash handler cancels the command and is reported", async () => {
		harness = await InteractiveHarness.start({
			extension: (pi: ExtensionAPI) => {
				pi.on("user_bash", () => {
					throw new Error("remote shell unavailable");
				});
			},
		});
		harness.submit("!touch marker");
		await harness.until(async () => (await harness!.screen()).includes("remote shell unavailable"));
		await harness.until(async () => !(await harness!.screen()).includes("Running…"));
		expect(existsSync(join(harness.cwd, "marker"))).toBe(false);
		expect(bashMessages(harness)).toHaveLength(0);
	});

	it("a ! without a command is sent as a prompt", async () => {
		harness = await InteractiveHarness.start();
		harness.faux.setResponses([fauxAssistantMessage("just a bang")]);
		const since = harness.eventCount;
		harness.submit("!  ");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		expect(harness.roles()).toEqual(["user", "assistant"]);
		expect(bashMessages(harness)).toHaveLength(0);
	});

	it("user commands do not get the TAU_SESSION_* tool environment", async () => {
		harness = await InteractiveHarness.start();
		harness.submit("!env | grep -c '^TAU_SESSION_' || true");
		await harness.until(() => bashMessages(harness!).length === 1);
		expect(bashMessages(harness)[0]?.output.trim()).toBe("0");
	});
});
