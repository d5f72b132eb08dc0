import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fauxAssistantMessage } from "@tau/ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InteractiveHarness, KEYS } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

describe("built-in slash commands", () => {
	it("/model with an exact id switches; with an unknown id opens the selector filtered by it", async () => {
		harness = await InteractiveHarness.start({ models: [{ id: "faux-1" }, { id: "faux-2" }] });
		harness.submit("/model faux-2");
		await harness.settleMicrotasks();
		expect(harness.runtime.session.model?.id).toBe("faux-2");
		expect(await harness.screen()).toContain("Model: faux-2");

		harness.submit("/model bogus");
		const screen = await harness.screen();
		expect(screen).toContain("Select model");
		expect(screen).toContain("› bogus");
		expect(screen).toContain("No matching");
		harness.terminal.press(KEYS.escape);
		harness.type("/model 1");
		harness.terminal.press(KEYS.enter);
		expect(await harness.screen()).toContain("Select model");
		harness.terminal.press(KEYS.enter);
		await harness.settleMicrotasks();
		expect(harness.runtime.session.model?.id).toBe("faux-1");
	});

	it("opening the model selector reloads models.json before listing the models", async () => {
		harness = await InteractiveHarness.start({ models: [{ id: "faux-1" }, { id: "faux-2" }] });
		const modelRuntime = harness.runtime.session.modelRuntime;
		const order: string[] = [];
		vi.spyOn(modelRuntime, "reload").mockImplementation(() => order.push("reload"));
		const getAvailable = modelRuntime.getAvailable.bind(modelRuntime);
		vi.spyOn(modelRuntime, "getAvailable").mockImplementation(() => {
			order.push("list");
			return getAvailable();
		});
		harness.submit("/model");
		expect(await harness.screen()).toContain("Select model");
		expect(order.slice(0, 2)).toEqual(["reload", "list"]);
		harness.terminal.press(KEYS.escape);
	});

	it("/thinking with an unknown level lists the available ones", async () => {
		harness = await InteractiveHarness.start({ models: [{ id: "thinker", reasoning: true }] });
		harness.submit("/thinking foo");
		const screen = await harness.screen();
		expect(screen).toMatch(/Unknown thinking level "foo"\. Available levels: off, minimal, low, medium, high/);
		harness.submit("/thinking HIGH");
		await harness.settleMicrotasks();
		expect(harness.runtime.session.thinkingLevel).toBe("high");
		expect(await harness.screen()).toContain("Thinking level: high");
	});

	it("/name without an argument and without a name shows the usage; with one sets it", async () => {
		harness = await InteractiveHarness.start();
		harness.submit("/name");
		expect(await harness.screen()).toContain("Usage: /name <name>");
		harness.submit("/name  my work ");
		await harness.settleMicrotasks();
		expect(harness.runtime.session.sessionName).toBe("my work");
		const screen = await harness.screen();
		expect(screen).toContain("Session name set: my work");
		expect(screen).toContain("• my work");
	});

	it("/export writes JSONL for a .jsonl path and HTML otherwise, reporting the path", async () => {
		harness = await InteractiveHarness.start({ columns: 220 });
		await harness.answer("hello", "hi back");
		harness.submit("/export out.jsonl");
		await harness.settleMicrotasks();
		const jsonl = join(harness.cwd, "out.jsonl");
		expect(readFileSync(jsonl, "utf8").trim().split("\n").length).toBeGreaterThanOrEqual(3);
		expect(await harness.screen()).toContain(`Session exported to: ${jsonl}`);
		harness.submit("/export");
		const html = join(harness.cwd, `tau-session-${harness.runtime.session.sessionId}.html`);
		await harness.until(() => existsSync(html));
		expect(await harness.screen()).toContain(`Session exported to: ${html}`);
		expect(readFileSync(html, "utf8")).toContain("<html");
	});

	it("/new starts a fresh session and /fork branches from an earlier prompt with its text in the editor", async () => {
		harness = await InteractiveHarness.start({ persisted: true });
		await harness.answer("first question", "first answer");
		await harness.answer("second question", "second answer");
		const original = harness.runtime.session.sessionId;

		harness.submit("/fork");
		let screen = await harness.screen();
		expect(screen).toContain("Fork from message");
		harness.terminal.press(KEYS.down);
		harness.terminal.press(KEYS.enter);
		await harness.settleMicrotasks(50);
		expect(harness.runtime.session.sessionId).not.toBe(original);
		expect(harness.mode.editor.getText()).toBe("first question");
		expect(harness.roles()).toEqual([]);

		harness.mode.editor.setText("");
		harness.submit("/new");
		await harness.settleMicrotasks(50);
		screen = await harness.screen();
		expect(screen).toContain("✓ New session started");
		expect(harness.roles()).toEqual([]);
	});

	it("/clone copies the branch; /copy writes the last answer to the clipboard via OSC 52", async () => {
		harness = await InteractiveHarness.start({ persisted: true });
		harness.submit("/clone");
		expect(await harness.screen()).toContain("Nothing to clone yet");
		await harness.answer("question", "copy me");
		harness.terminal.clearRawOutput();
		harness.submit("/copy");
		await harness.screen();
		expect(harness.terminal.getRawOutput()).toContain(`\x1b]52;c;${Buffer.from("copy me").toString("base64")}\x07`);
		const original = harness.runtime.session.sessionId;
		harness.submit("/clone");
		await harness.settleMicrotasks(50);
		expect(harness.runtime.session.sessionId).not.toBe(original);
		expect(harness.roles()).toEqual(["user", "assistant"]);
		expect(await harness.screen()).toContain("Cloned to new session");
	});

	it("/session shows the file, id and counts; /hotkeys lists bindings", async () => {
		harness = await InteractiveHarness.start();
		await harness.answer("hello", "hi");
		harness.submit("/session");
		let screen = await harness.screen();
		expect(screen).toContain("File: In-memory");
		expect(screen).toContain(`ID: ${harness.runtime.session.sessionId}`);
		expect(screen).toContain("Messages: 1 user, 1 assistant");
		harness.submit("/hotkeys");
		screen = await harness.screen();
		expect(screen).toMatch(/Alt\+Enter\s+Queue follow-up message \(app\.message\.followUp\)/);
	});

	it("/tree lists entries and moves back to an earlier prompt", async () => {
		harness = await InteractiveHarness.start();
		await harness.answer("one", "answer one");
		await harness.answer("two", "answer two");
		harness.submit("/tree");
		const screen = await harness.screen();
		expect(screen).toContain("Session tree");
		expect(screen).toContain("user: two");
		harness.type("user: two");
		harness.terminal.press(KEYS.enter);
		expect(await harness.screen()).toContain("Summarize branch?");
		harness.terminal.press(KEYS.enter);
		await harness.settleMicrotasks(50);
		expect(harness.mode.editor.getText()).toBe("two");
		expect(harness.roles()).toEqual(["user", "assistant"]);
	});

	it("/settings changes a setting and saves it", async () => {
		harness = await InteractiveHarness.start();
		harness.submit("/settings");
		harness.type("Double");
		expect(await harness.screen()).toContain("Double-Escape action");
		harness.terminal.press(KEYS.enter);
		await harness.settleMicrotasks();
		expect(harness.runtime.session.settingsManager.getDoubleEscapeAction()).toBe("fork");
		harness.terminal.press(KEYS.escape);
	});

	it("/resume lists the other sessions of the directory and switches to the chosen one", async () => {
		harness = await InteractiveHarness.start({ persisted: true });
		await harness.answer("remember the blue door", "noted");
		const first = harness.runtime.session.sessionFile;
		harness.submit("/new");
		await harness.until(() => harness!.runtime.session.sessionFile !== first);
		await harness.answer("other topic", "sure");
		harness.submit("/resume");
		await harness.until(async () => (await harness!.screen()).includes("Resume session"));
		expect(await harness.screen()).toContain("remember the blue door");
		harness.terminal.press(KEYS.enter);
		await harness.until(() => harness!.runtime.session.sessionFile === first);
		const screen = await harness.screen();
		expect(screen).toContain("✓ Resumed session");
		expect(harness.roles()).toEqual(["user", "assistant"]);
	});

	it("/tree can summarize the abandoned branch", async () => {
		harness = await InteractiveHarness.start();
		await harness.answer("one", "answer one");
		await harness.answer("two", "answer two");
		harness.faux.setResponses([fauxAssistantMessage("## Branch summary\nthe user asked two")]);
		harness.submit("/tree");
		harness.type("user: two");
		harness.terminal.press(KEYS.enter);
		expect(await harness.screen()).toContain("Summarize branch?");
		harness.terminal.press(KEYS.down);
		harness.terminal.press(KEYS.enter);
		await harness.until(() => harness!.mode.editor.getText() === "two");
		const entries = harness.runtime.session.sessionManager.getEntries();
		expect(entries.some((entry) => entry.type === "branch_summary")).toBe(true);
		expect(harness.roles()).toEqual(["user", "assistant", "branchSummary"]);
	});

	it("/debug writes the rendered lines and session messages to the agent dir", async () => {
		harness = await InteractiveHarness.start();
		await harness.answer("hello", "debuggable reply");
		harness.submit("/debug");
		expect(await harness.screen()).toContain("✓ Debug log written");
		const log = readFileSync(join(harness.agentDir, "tau-debug.log"), "utf8");
		expect(log).toContain("# rendered lines");
		expect(log).toMatch(/\t\d+\t".*debuggable reply/);
		expect(log).toContain('"role":"assistant"');
	});

	it("/import switches to an imported JSONL session; a missing file is reported", async () => {
		harness = await InteractiveHarness.start({ persisted: true, columns: 220 });
		await harness.answer("keep this conversation", "kept");
		harness.submit("/export saved.jsonl");
		await harness.until(() => existsSync(join(harness!.cwd, "saved.jsonl")));
		harness.submit("/new");
		await harness.until(() => harness!.roles().length === 0);
		harness.submit("/import saved.jsonl");
		await harness.until(() => harness!.roles().length === 2);
		expect(await harness.screen()).toContain("✓ Imported session");
		harness.submit("/import missing.jsonl");
		await harness.until(async () => (await harness!.screen()).includes("Session file not found:"));
	});

	it("/logout removes a stored credential; /login reports a provider that cannot sign in", async () => {
		harness = await InteractiveHarness.start();
		const credentials = harness.runtime.session.modelRuntime.credentials;
		harness.submit("/logout");
		expect(await harness.screen()).toContain("No stored credentials");
		await credentials.modify("faux", async () => ({ type: "api_key", key: "secret" }));
		harness.submit("/logout");
		await harness.until(async () => (await harness!.screen()).includes("Log out of"));
		harness.terminal.press(KEYS.enter);
		await harness.until(async () => (await credentials.list()).length === 0);
		expect(await harness.screen()).toMatch(/✓ Logged out of /);
		harness.submit("/login faux");
		await harness.until(async () => (await harness!.screen()).includes("Login failed:"));
	});

	it("/trust saves the decision for the project in trust.json", async () => {
		harness = await InteractiveHarness.start();
		harness.submit("/trust");
		expect(await harness.screen()).toContain("(now undecided)");
		harness.terminal.press(KEYS.enter);
		await harness.until(() => existsSync(join(harness!.agentDir, "trust.json")));
		const saved = JSON.parse(readFileSync(join(harness.agentDir, "trust.json"), "utf8")) as Record<string, unknown>;
		expect(Object.values(saved)).toEqual([true]);
		expect(await harness.screen()).toContain("✓ Saved: Trust;");
	});

	it("/trust offers the startup prompt's saving options; trusting the parent folder saves the parent", async () => {
		harness = await InteractiveHarness.start();
		harness.submit("/trust");
		const screen = await harness.screen();
		const parent = dirname(realpathSync(harness.cwd));
		for (const label of ["Trust", `Trust parent folder (${parent})`, "Do not trust", "Forget the decision"]) {
			expect(screen).toContain(label);
		}
		expect(screen).not.toContain("this session only");
		harness.terminal.press(KEYS.down);
		harness.terminal.press(KEYS.enter);
		await harness.until(() => existsSync(join(harness!.agentDir, "trust.json")));
		const saved = JSON.parse(readFileSync(join(harness.agentDir, "trust.json"), "utf8")) as Record<string, unknown>;
		expect(saved).toEqual({ [parent]: true });
	});

	it("the session picker deletes a listed session with Ctrl+D after asking", async () => {
		harness = await InteractiveHarness.start({ persisted: true });
		await harness.answer("old topic", "ok");
		const first = harness.runtime.session.sessionFile!;
		harness.submit("/new");
		await harness.until(() => harness!.runtime.session.sessionFile !== first);
		harness.submit("/resume");
		await harness.until(async () => (await harness!.screen()).includes("old topic"));
		harness.terminal.press(KEYS.ctrlD);
		await harness.until(async () => (await harness!.screen()).includes('Delete "old topic"?'));
		harness.terminal.press(KEYS.down);
		harness.terminal.press(KEYS.enter);
		await harness.until(() => !existsSync(first));
		expect(await harness.screen()).toContain("No other sessions in this directory");
	});
});
