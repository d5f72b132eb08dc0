import { EventEmitter } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { FailureSources } from "../../src/modes/interactive/controller/process-failures.js";
import { InteractiveHarness } from "./harness.js";

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

describe("process failures (cli-modes.md §10.9)", () => {
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

	it("the next start reports the unreported crash once", async () => {
		harness = await InteractiveHarness.start({ agentFiles: { "tau-crash.log": "Error: boom\n" }, columns: 250 });
		const reported = join(harness.agentDir, "tau-crash.reported.log");
		expect(await harness.screen()).toContain(`The previous session crashed. Crash log: ${reported}`);
		expect(readFileSync(reported, "utf8")).toBe("Error: boom\n");
		expect(existsSync(join(harness.agentDir, "tau-crash.log"))).toBe(false);
	});
});
