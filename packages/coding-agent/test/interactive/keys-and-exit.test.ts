import { fauxAssistantMessage } from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { resumeCommand } from "../../src/modes/interactive/resume-hint.js";
import { gatedStep, InteractiveHarness, KEYS } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

describe("exit and interrupt keys", () => {
	it("Ctrl+C clears; a second Ctrl+C within 500 ms quits, restores the terminal and prints the resume hint", async () => {
		harness = await InteractiveHarness.start({ persisted: true, mode: { tuiMode: "fullscreen" } });
		harness.faux.setResponses([fauxAssistantMessage("saved answer")]);
		const since = harness.eventCount;
		harness.submit("persist me");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		expect(harness.terminal.isAltScreenActive()).toBe(true);

		harness.type("some text");
		harness.terminal.press(KEYS.ctrlC);
		expect(harness.mode.editor.getText()).toBe("");
		harness.clock += 600;
		harness.terminal.press(KEYS.ctrlC);
		expect(harness.exitCode).toBeUndefined();
		harness.clock += 100;
		harness.terminal.press(KEYS.ctrlC);
		expect(await harness.exited).toBe(0);
		expect(harness.exitCode).toBe(0);
		await harness.terminal.flush();
		expect(harness.terminal.isAltScreenActive()).toBe(false);
		expect(harness.terminal.started).toBe(false);
		// fullscreenExitOutput "transcript": the conversation (not the editor or footer) is left in the main screen.
		const main = harness.terminal.getViewport().join("\n");
		expect(main).toContain("saved answer");
		expect(main.match(/saved answer/g)).toHaveLength(1);
		expect(main).not.toContain("(auto)");
		// The hint names the session file, which reopens it from any directory (an id only from its project's).
		const file = harness.runtime.session.sessionFile!;
		expect(harness.stdout).toContain(`To resume this session:`);
		expect(harness.stdout).toContain(`\n${resumeCommand(file)}\n`);
		expect(resumeCommand(file)).toContain(file);
	});

	it("fullscreenExitOutput resume-hint leaves the transcript out of the main screen", async () => {
		harness = await InteractiveHarness.start({
			persisted: true,
			settings: { fullscreenExitOutput: "resume-hint" },
			mode: { tuiMode: "fullscreen" },
		});
		harness.faux.setResponses([fauxAssistantMessage("private answer")]);
		const since = harness.eventCount;
		harness.submit("hello");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		harness.submit("/quit");
		await harness.exited;
		await harness.terminal.flush();
		expect(harness.terminal.isAltScreenActive()).toBe(false);
		expect(harness.terminal.getViewport().join("\n")).not.toContain("private answer");
		expect(harness.stdout).toContain("To resume this session:");
	});

	it("an in-memory session prints no resume hint", async () => {
		harness = await InteractiveHarness.start();
		harness.submit("/quit");
		await harness.exited;
		expect(harness.stdout).toBe("");
	});

	it("Ctrl+D exits only when the editor is empty", async () => {
		harness = await InteractiveHarness.start();
		harness.type("ab");
		harness.terminal.press("\x1b[D");
		harness.terminal.press(KEYS.ctrlD);
		expect(harness.exitCode).toBeUndefined();
		expect(harness.mode.editor.getText()).toBe("a");
		harness.mode.editor.setText("");
		harness.terminal.press(KEYS.ctrlD);
		expect(await harness.exited).toBe(0);
	});

	it("double Escape on an empty editor opens the tree selector; doubleEscapeAction none does nothing", async () => {
		harness = await InteractiveHarness.start();
		harness.faux.setResponses([fauxAssistantMessage("reply")]);
		const since = harness.eventCount;
		harness.submit("hello");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		harness.terminal.press(KEYS.escape);
		expect(await harness.screen()).not.toContain("Session tree");
		harness.clock += 100;
		harness.terminal.press(KEYS.escape);
		expect(await harness.screen()).toContain("Session tree");
		harness.terminal.press(KEYS.escape);
		await harness.close();

		harness = await InteractiveHarness.start({ settings: { doubleEscapeAction: "none" } });
		harness.terminal.press(KEYS.escape);
		harness.terminal.press(KEYS.escape);
		const screen = await harness.screen();
		expect(screen).not.toContain("Session tree");
		expect(screen).not.toContain("Fork from message");
	});

	it("Escape in bash mode clears the editor", async () => {
		harness = await InteractiveHarness.start();
		harness.type("!ls");
		harness.terminal.press(KEYS.escape);
		expect(harness.mode.editor.getText()).toBe("");
	});

	it("Alt+Up restores queued messages into the editor", async () => {
		harness = await InteractiveHarness.start();
		const gate = gatedStep(fauxAssistantMessage("done"));
		harness.faux.setResponses([gate.step]);
		const since = harness.eventCount;
		harness.submit("long task");
		await gate.started;
		harness.submit("queued one");
		await harness.waitForEvent((event) => event.type === "queue_update", since);
		harness.terminal.press("\x1b[1;3A");
		expect(harness.mode.editor.getText()).toBe("queued one");
		expect(await harness.screen()).toContain("Restored 1 queued message(s) to editor");
		gate.open();
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		harness.mode.editor.setText("");
		harness.terminal.press("\x1b[1;3A");
		expect(await harness.screen()).toContain("No queued messages to restore");
	});

	it("reports program status: idle, working during a run, done after it, error on a failed reply", async () => {
		harness = await InteractiveHarness.start();
		expect(harness.terminal.statuses[0]?.state).toBe("idle");
		harness.faux.setResponses([
			fauxAssistantMessage("ok"),
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "bad\nsecond line" }),
		]);
		let since = harness.eventCount;
		harness.submit("one");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		expect(harness.terminal.statuses.map((status) => status.state)).toEqual(["idle", "working", "done"]);
		since = harness.eventCount;
		harness.submit("two");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		expect(harness.terminal.statuses.at(-1)).toEqual({ state: "error", app: "tau", message: "bad" });
	});

	it("sets the terminal title from the session name and reports progress when enabled", async () => {
		harness = await InteractiveHarness.start({ settings: { terminal: { showTerminalProgress: true } } });
		harness.terminal.clearRawOutput();
		harness.faux.setResponses([fauxAssistantMessage("ok")]);
		const since = harness.eventCount;
		harness.submit("/name demo");
		harness.submit("go");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		await harness.screen();
		const raw = harness.terminal.getRawOutput();
		expect(raw).toContain("\x1b]0;tau - demo - project\x07");
		expect(raw).toContain("\x1b]9;4;3\x07");
		expect(raw).toContain("\x1b]9;4;0\x07");
	});

	it("Ctrl+G edits the prompt in the external editor and restores the UI", async () => {
		harness = await InteractiveHarness.start({ settings: { externalEditor: "sed -i s/draft/edited/" } });
		harness.type("my draft text");
		harness.terminal.press("\x07");
		expect(harness.mode.editor.getText()).toBe("my edited text");
		expect(harness.terminal.started).toBe(true);
		expect(await harness.screen()).toContain("my edited text");
	});

	it("a failing external editor leaves the text and reports the failure", async () => {
		harness = await InteractiveHarness.start({ settings: { externalEditor: "false" } });
		harness.type("keep me");
		harness.terminal.press("\x07");
		expect(harness.mode.editor.getText()).toBe("keep me");
		expect(await harness.screen()).toContain("External editor failed: false exited with code 1");
	});

	it("SIGHUP shuts extensions down, restores the terminal and exits 129", async () => {
		const shutdowns: string[] = [];
		const listenersBefore = process.listenerCount("SIGHUP");
		harness = await InteractiveHarness.start({
			mode: { handleSignals: true },
			extension: (pi: ExtensionAPI) => {
				pi.on("session_shutdown", (event) => void shutdowns.push(event.reason));
			},
		});
		// Real signals pass their name to listeners; the renderer's handler relies on it.
		(process.emit as (event: string, ...args: unknown[]) => boolean)("SIGHUP", "SIGHUP");
		expect(await harness.exited).toBe(129);
		expect(harness.exitCode).toBe(129);
		expect(shutdowns).toEqual(["quit"]);
		expect(harness.terminal.started).toBe(false);
		expect(process.listenerCount("SIGHUP")).toBe(listenersBefore);
	});
});
