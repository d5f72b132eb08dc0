import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDemo } from "../../../examples/tui-demo.js";
import { nextTick } from "./helpers/components.js";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

beforeEach(() => {
	vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
	vi.useRealTimers();
});

async function settle(term: VirtualTerminal): Promise<void> {
	for (let i = 0; i < 5; i++) {
		await nextTick();
		await vi.advanceTimersByTimeAsync(20);
	}
	let done = false;
	const flushed = term.flush().then(() => {
		done = true;
	});
	for (let i = 0; i < 1000 && !done; i++) await vi.advanceTimersByTimeAsync(0);
	await flushed;
}

const screen = (term: VirtualTerminal) => [...term.getScrollback(), ...term.getViewport()].join("\n");

describe("examples/tui-demo.ts", () => {
	it("streams a markdown answer, completes a slash command and picks a model in an overlay", async () => {
		const term = new VirtualTerminal(70, 30);
		const demo = createDemo(term, { chunkSize: 20, stepMs: 10 });
		demo.tui.start();
		await settle(term);
		expect(term.getViewport()[0]).toContain("tau tui demo");

		term.sendInput("hello");
		await settle(term);
		expect(screen(term)).toContain("hello");
		term.sendInput("\r");
		const done = demo.streaming();
		for (let i = 0; i < 40; i++) await vi.advanceTimersByTimeAsync(10);
		await done;
		await settle(term);
		const text = screen(term);
		expect(text).toContain("› hello");
		expect(text).toContain("You said: hello");
		expect(text).toContain('  const greeting = "hello";');
		expect(text).toContain("Done.");
		expect(text).not.toContain("```ts\n```");

		term.sendInput("/mo");
		await settle(term);
		expect(screen(term)).toContain("→ model");
		term.sendInput("\r");
		await settle(term);
		expect(demo.tui.hasOverlay()).toBe(true);
		expect(screen(term)).toContain("faux-vision");
		term.sendInput("\x1b[B");
		term.sendInput("\r");
		await settle(term);
		expect(demo.tui.hasOverlay()).toBe(false);
		expect(screen(term)).toContain("model: faux-large");
		expect(demo.editor.focused).toBe(true);
		expect(demo.editor.getText()).toBe("");
		demo.tui.stop();
	});
});
