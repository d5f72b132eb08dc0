import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage } from "@tau/ai";
import { SessionManager } from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { InteractiveHarness, KEYS } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

const CTRL = { r: "\x12", n: "\x0e", s: "\x13", p: "\x10", d: "\x04" } as const;

/** A session of `cwd` in the harness's session dir whose activity happened at `at` (ms). */
function writeSession(h: InteractiveHarness, text: string, at: number, cwd = h.cwd): SessionManager {
	const manager = SessionManager.create(cwd, join(h.agentDir, "sessions"), undefined, { agentDir: h.agentDir });
	manager.appendMessage({ role: "user", content: text, timestamp: at });
	manager.appendMessage({ ...fauxAssistantMessage("ok"), timestamp: at + 1 });
	// Like a process that ended: the file is no longer locked by its writer.
	manager.dispose();
	return manager;
}

/** Two earlier sessions of the project: "alpha topic", then the more recent "beta topic". */
async function withSessions(): Promise<InteractiveHarness> {
	const h = await InteractiveHarness.start({ persisted: true, columns: 200 });
	writeSession(h, "alpha topic", 1_000_000);
	writeSession(h, "beta topic", 2_000_000);
	return h;
}

/** The picker's rows (lines between the search field and the hint) as shown. */
async function rows(h: InteractiveHarness): Promise<string[]> {
	const lines = await h.viewport();
	const start = lines.findIndex((line) => line.startsWith("›"));
	const end = lines.findIndex((line, index) => index > start && line.includes("rename ·"));
	return lines.slice(start + 1, end).filter((line) => line.trim() !== "");
}

describe("/resume picker (docs/design/interactive.md#slash-commands)", () => {
	it("renames a listed session, then shows only named sessions with the named-only toggle", async () => {
		harness = await withSessions();
		harness.submit("/resume");
		await harness.until(async () => (await harness!.screen()).includes("Resume session"));
		harness.type("beta");
		await harness.screen();
		harness.terminal.press(CTRL.r);
		await harness.until(async () => (await harness!.screen()).includes('Rename "beta topic"'));
		for (const _ of "beta topic") harness.terminal.press(KEYS.backspace);
		harness.submit("Release notes");
		await harness.until(async () => (await harness!.screen()).includes("Session renamed: Release notes"));
		// The picker reopens with the search text it had.
		await harness.until(async () => (await harness!.viewport()).includes("› beta"));
		for (const _ of "beta") harness.terminal.press(KEYS.backspace);
		await harness.settleMicrotasks();
		expect((await rows(harness)).join("\n")).toContain("Release notes");
		harness.terminal.press(CTRL.n);
		await harness.until(async () => (await harness!.screen()).includes("named only"));
		const named = await rows(harness);
		expect(named).toHaveLength(1);
		expect(named[0]).toContain("Release notes");
		expect(named[0]).not.toContain("beta topic");
		harness.terminal.press(KEYS.escape);
	});

	it("sorts by name or most recent first, and shows session paths on request", async () => {
		harness = await withSessions();
		harness.submit("/resume");
		await harness.until(async () => (await harness!.screen()).includes("most recent first"));
		const topics = async () => (await rows(harness!)).map((row) => /(alpha|beta) topic/.exec(row)?.[0]);
		expect(await topics()).toEqual(["beta topic", "alpha topic"]);
		harness.terminal.press(CTRL.s);
		await harness.until(async () => (await harness!.screen()).includes("by name"));
		expect(await topics()).toEqual(["alpha topic", "beta topic"]);
		harness.terminal.press(CTRL.s);
		await harness.until(async () => (await harness!.screen()).includes("most recent first"));
		expect((await rows(harness)).join("\n")).not.toContain(".jsonl");
		harness.terminal.press(CTRL.p);
		await harness.until(async () => (await rows(harness!)).join("\n").includes(".jsonl"));
		harness.terminal.press(KEYS.escape);
	});

	it("deletes a listed session after confirmation", async () => {
		harness = await withSessions();
		harness.submit("/resume");
		await harness.until(async () => (await harness!.screen()).includes("Resume session"));
		harness.type("alpha");
		harness.terminal.press(CTRL.d);
		await harness.until(async () => (await harness!.screen()).includes('Delete "alpha topic"?'));
		harness.terminal.press(KEYS.down);
		harness.terminal.press(KEYS.enter);
		await harness.until(async () => (await harness!.screen()).includes("Session deleted: alpha topic"));
		await harness.until(async () => (await harness!.viewport()).includes("› alpha"));
		expect((await rows(harness)).join("\n")).not.toContain("alpha topic");
		harness.terminal.press(KEYS.escape);
	});

	it("Tab lists the sessions of every directory; the chosen one opens in its recorded cwd", async () => {
		harness = await withSessions();
		const elsewhere = join(harness.cwd, "..", "elsewhere");
		mkdirSync(elsewhere);
		const other = writeSession(harness, "gamma elsewhere", 3_000_000, elsewhere);
		harness.submit("/resume");
		await harness.until(async () => (await harness!.screen()).includes("(this directory"));
		expect((await rows(harness)).join("\n")).not.toContain("gamma elsewhere");
		harness.terminal.press("\t");
		await harness.until(async () => (await harness!.screen()).includes("(all directories"));
		harness.type("gamma elsewhere");
		await harness.until(async () => (await rows(harness!))[0]?.startsWith("→ gamma elsewhere") === true);
		harness.terminal.press(KEYS.enter);
		await harness.until(() => harness!.runtime.session.sessionFile === other.getSessionFile());
		expect(realpathSync(harness.runtime.cwd)).toBe(realpathSync(elsewhere));
	});

	it("Ctrl+Backspace deletes only while the search is empty", async () => {
		harness = await withSessions();
		harness.submit("/resume");
		await harness.until(async () => (await harness!.screen()).includes("Resume session"));
		const ctrlBackspace = "\x1b[127;5u";
		harness.type("alpha");
		harness.terminal.press(ctrlBackspace);
		await harness.settleMicrotasks();
		expect(await harness.screen()).not.toContain("Delete ");
		for (const _ of "alpha") harness.terminal.press(KEYS.backspace);
		harness.terminal.press(ctrlBackspace);
		await harness.until(async () => (await harness!.screen()).includes('Delete "beta topic"?'));
		harness.terminal.press(KEYS.escape);
	});
});
