import { EventEmitter } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage } from "@tau/ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AgentSession } from "../../src/core/agent-session/agent-session.js";
import type { FailureSources } from "../../src/modes/interactive/controller/process-failures.js";
import { gatedStep, InteractiveHarness } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	vi.restoreAllMocks();
	await harness?.close();
	harness = undefined;
});

function fakeSources(): FailureSources & { stdout: EventEmitter } {
	const stdout = new EventEmitter();
	return { stdout, streams: [stdout, new EventEmitter()], process: new EventEmitter() };
}

describe("process failures (docs/design/interactive.md#exit)", () => {
	it("EIO on the terminal's output exits 129 at once, without writing to the terminal", async () => {
		const sources = fakeSources();
		harness = await InteractiveHarness.start({ mode: { handleSignals: true, failureSources: sources } });
		await harness.screen();
		const written = harness.terminal.getRawOutput().length;
		sources.stdout.emit("error", Object.assign(new Error("write EIO"), { code: "EIO" }));
		expect(await harness.exited).toBe(129);
		expect(harness.exitCode).toBe(129);
		expect(harness.terminal.getRawOutput().length).toBe(written);
		expect(harness.stdout).toBe("");
	});

	it("other stream errors are not mistaken for a dead terminal", async () => {
		const sources = fakeSources();
		harness = await InteractiveHarness.start({ mode: { handleSignals: true, failureSources: sources } });
		sources.stdout.emit("error", Object.assign(new Error("write EAGAIN"), { code: "EAGAIN" }));
		await harness.settleMicrotasks();
		expect(harness.exitCode).toBeUndefined();
	});

	it("an uncaught exception restores the terminal, writes tau-crash.log and exits 1", async () => {
		const sources = fakeSources();
		const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
		harness = await InteractiveHarness.start({
			mode: { handleSignals: true, failureSources: sources, tuiMode: "fullscreen" },
		});
		await harness.screen();
		expect(harness.terminal.isAltScreenActive()).toBe(true);
		sources.process.emit("uncaughtException", new Error("boom in a timer"));
		expect(await harness.exited).toBe(1);
		await harness.terminal.flush();
		expect(harness.terminal.started).toBe(false);
		expect(harness.terminal.isAltScreenActive()).toBe(false);
		const log = join(harness.agentDir, "tau-crash.log");
		expect(readFileSync(log, "utf8")).toContain("Error: boom in a timer");
		expect(stderr).toHaveBeenCalledWith(`tau crashed: boom in a timer\nCrash log: ${log}\n`);
	});

	/** Everything tau turns on in fullscreen is off again, and the cursor is shown. */
	async function expectRestored(): Promise<void> {
		const terminal = harness!.terminal;
		await terminal.flush();
		expect(terminal.started).toBe(false);
		expect(terminal.isAltScreenActive()).toBe(false);
		for (const mode of [1000, 1002, 1003, 1006, 2004]) expect(terminal.isModeSet(mode), `mode ${mode}`).toBe(false);
		expect(terminal.isModeSet(25)).toBe(true);
		expect(terminal.isModeSet(7)).toBe(true);
	}

	it("a crash while starting restores the terminal before the error reaches the caller", async () => {
		vi.spyOn(AgentSession.prototype, "bindExtensions").mockRejectedValue(new Error("boom at start"));
		const sources = fakeSources();
		harness = await InteractiveHarness.start({
			mode: { handleSignals: true, failureSources: sources, tuiMode: "fullscreen" },
		});
		let restoredFirst = false;
		await harness.exited.catch((error: Error) => {
			// What the CLI prints comes after this: the alternate screen must already be left.
			restoredFirst = !harness!.terminal.started;
			expect(error.message).toBe("boom at start");
		});
		expect(restoredFirst).toBe(true);
		await expectRestored();
		// The crash listeners went away with the renderer.
		expect(sources.process.listenerCount("uncaughtException")).toBe(0);
	});

	it("an unhandled rejection mid-turn restores the terminal before the error is printed", async () => {
		const sources = fakeSources();
		const printed: { text: string; altScreen: boolean }[] = [];
		harness = await InteractiveHarness.start({
			mode: { handleSignals: true, failureSources: sources, tuiMode: "fullscreen" },
		});
		const terminal = harness.terminal;
		vi.spyOn(process.stderr, "write").mockImplementation((text) => {
			printed.push({ text: String(text), altScreen: terminal.getRawOutput().lastIndexOf("\x1b[?1049l") < 0 });
			return true;
		});
		const gate = gatedStep(fauxAssistantMessage("never shown"));
		harness.faux.setResponses([gate.step]);
		harness.submit("work");
		await gate.started;
		expect(terminal.isAltScreenActive()).toBe(true);
		sources.process.emit("unhandledRejection", new Error("extension promise failed"), Promise.resolve());
		expect(await harness.exited).toBe(1);
		expect(printed[0]?.text).toContain("tau crashed: extension promise failed");
		expect(printed[0]?.altScreen).toBe(false);
		await expectRestored();
	});

	it("the next start reports the unreported crash once", async () => {
		harness = await InteractiveHarness.start({ agentFiles: { "tau-crash.log": "Error: boom\n" }, columns: 250 });
		const reported = join(harness.agentDir, "tau-crash.reported.log");
		expect(await harness.screen()).toContain(`The previous session crashed. Crash log: ${reported}`);
		expect(readFileSync(reported, "utf8")).toBe("Error: boom\n");
		expect(existsSync(join(harness.agentDir, "tau-crash.log"))).toBe(false);
	});
});
