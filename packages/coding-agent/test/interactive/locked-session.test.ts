import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { holdSession } from "../support/session-holder.js";
import { InteractiveHarness, KEYS } from "./harness.js";

let harness: InteractiveHarness | undefined;
let holder: ChildProcess | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
	holder?.kill("SIGKILL");
	holder = undefined;
});

describe("opening a session another process holds", () => {
	it("asks once, naming the process; read-only keeps what is typed and starts nothing", async () => {
		const file = join(mkdtempSync(join(tmpdir(), "tau-held-")), "held.jsonl");
		holder = await holdSession(file);
		harness = await InteractiveHarness.start({ sessionFile: file });
		let screen = await harness.screen();
		expect(screen).toContain(`This session is open in process ${holder.pid}`);
		expect(screen).toContain("Open read-only");
		expect(screen).toContain("Fork into a new session");
		expect(screen).toContain("Quit");
		expect(screen).not.toContain("Error");
		expect(screen).not.toContain("Working");
		// The conversation so far is shown behind the question.
		expect(screen).toContain("child holds the lock");

		harness.terminal.press(KEYS.enter);
		await harness.settleMicrotasks();
		harness.type("my carefully typed question");
		harness.terminal.press(KEYS.enter);
		screen = await harness.screen();
		// Asked again instead of failing; no run, no spinner, nothing typed is lost.
		expect(screen).toContain(`This session is open in process ${holder.pid}`);
		expect(screen).not.toContain("Working");
		expect(screen).not.toContain("Error");
		expect(harness.faux.state.callCount).toBe(0);
		harness.terminal.press(KEYS.escape);
		await harness.settleMicrotasks();
		expect(harness.mode.editor.getText()).toBe("my carefully typed question");
	});

	it("fork continues in a new session with the conversation", async () => {
		const file = join(mkdtempSync(join(tmpdir(), "tau-held-")), "held.jsonl");
		holder = await holdSession(file);
		harness = await InteractiveHarness.start({ sessionFile: file });
		harness.terminal.press(KEYS.down);
		harness.terminal.press(KEYS.enter);
		await harness.until(() => harness!.runtime.session.sessionFile !== file);
		expect(harness.runtime.session.sessionManager.isReadOnly()).toBe(false);
		await harness.answer("follow-up in the copy", "answered in the fork");
		const screen = await harness.screen();
		expect(screen).toContain("answered in the fork");
		expect(harness.roles()).toEqual(["user", "user", "assistant"]);
	});

	it("quit leaves without touching the session", async () => {
		const file = join(mkdtempSync(join(tmpdir(), "tau-held-")), "held.jsonl");
		holder = await holdSession(file);
		harness = await InteractiveHarness.start({ sessionFile: file });
		harness.terminal.press(KEYS.down);
		harness.terminal.press(KEYS.down);
		harness.terminal.press(KEYS.enter);
		expect(await harness.exited).toBe(0);
	});
});
