import { afterEach, describe, expect, it } from "vitest";
import type { ProcessSignals } from "../../src/modes/interactive/controller/suspend.js";
import { InteractiveHarness } from "./harness.js";

const CTRL_Z = "\x1a";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

/** Records job-control calls instead of stopping the test process. */
class FakeSignals implements ProcessSignals {
	readonly handlers = new Map<string, Set<() => void>>();
	stops = 0;
	on(signal: NodeJS.Signals, handler: () => void): void {
		if (!this.handlers.has(signal)) this.handlers.set(signal, new Set());
		this.handlers.get(signal)!.add(handler);
	}
	off(signal: NodeJS.Signals, handler: () => void): void {
		this.handlers.get(signal)?.delete(handler);
	}
	stopProcessGroup(): void {
		this.stops++;
	}
	count(signal: NodeJS.Signals): number {
		return this.handlers.get(signal)?.size ?? 0;
	}
	emit(signal: NodeJS.Signals): void {
		for (const handler of [...(this.handlers.get(signal) ?? [])]) handler();
	}
}

describe("Ctrl+Z (app.suspend)", () => {
	it("restores the terminal, ignores SIGINT and stops the process group; SIGCONT redraws everything", async () => {
		const signals = new FakeSignals();
		harness = await InteractiveHarness.start({ mode: { processSignals: signals, platform: "linux" } });
		harness.type("keep me");
		await harness.screen();
		harness.terminal.press(CTRL_Z);
		expect(signals.stops).toBe(1);
		expect(harness.terminal.started).toBe(false);
		expect(signals.count("SIGINT")).toBe(1);
		expect(signals.count("SIGCONT")).toBe(1);

		const mark = harness.terminal.getRawOutput().length;
		signals.emit("SIGCONT");
		expect(harness.terminal.started).toBe(true);
		expect(signals.count("SIGINT")).toBe(0);
		expect(signals.count("SIGCONT")).toBe(0);
		await harness.screen();
		// A full redraw: the editor line is written again although nothing changed.
		expect(harness.terminal.getRawOutput().slice(mark)).toContain("keep me");
		expect(harness.mode.editor.getText()).toBe("keep me");
	});

	it("an externally sent SIGTSTP suspends the same way; the listener goes with the mode", async () => {
		const signals = new FakeSignals();
		const before = process.listenerCount("SIGTSTP");
		harness = await InteractiveHarness.start({
			mode: { processSignals: signals, platform: "linux", handleSignals: true },
		});
		expect(process.listenerCount("SIGTSTP")).toBe(before + 1);
		// Real signals pass their name to listeners.
		(process.emit as (event: string, ...args: unknown[]) => boolean)("SIGTSTP", "SIGTSTP");
		expect(signals.stops).toBe(1);
		expect(harness.terminal.started).toBe(false);
		// Stopped, the renderer no longer catches SIGTSTP, so the signal's default action applies.
		expect(process.listenerCount("SIGTSTP")).toBe(before);
		signals.emit("SIGCONT");
		expect(harness.terminal.started).toBe(true);
		expect(process.listenerCount("SIGTSTP")).toBe(before + 1);
		await harness.close();
		harness = undefined;
		expect(process.listenerCount("SIGTSTP")).toBe(before);
	});

	it("a manual binding on native Windows explains that suspending is not supported", async () => {
		const signals = new FakeSignals();
		harness = await InteractiveHarness.start({
			agentFiles: { "keybindings.json": JSON.stringify({ "app.suspend": "ctrl+z" }) },
			mode: { processSignals: signals, platform: "win32" },
		});
		harness.terminal.press(CTRL_Z);
		expect(await harness.screen()).toContain("Suspend to background is not supported on Windows");
		expect(signals.stops).toBe(0);
		expect(harness.terminal.started).toBe(true);
	});
});
