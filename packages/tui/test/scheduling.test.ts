import { type Component, MIN_RENDER_INTERVAL_MS, TuiMainScreen } from "@tau/tui";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Lines, nextTick } from "./helpers/components.js";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

class KeyLog implements Component {
	keys: string[] = [];
	renders = 0;
	wantsKeyRelease = false;
	render(): readonly string[] {
		this.renders++;
		return [`keys: ${this.keys.length}`];
	}
	handleInput(data: string): void {
		this.keys.push(data);
	}
	invalidate(): void {}
}

/** Counts frames by their synchronized-output start sequence. */
function frames(term: VirtualTerminal): number {
	return term.getRawOutput().split("\x1b[?2026h").length - 1;
}

/** A started 40x10 main screen showing `children`, with `focus` focused when given. */
function startScreen(children: Component[], focus?: Component): { term: VirtualTerminal; tui: TuiMainScreen } {
	const term = new VirtualTerminal(40, 10);
	const tui = new TuiMainScreen(term);
	for (const child of children) tui.addChild(child);
	if (focus) tui.setFocus(focus);
	tui.start();
	return { term, tui };
}

/** Lets the first frame render and the pacing interval after it pass. */
async function afterFirstFrame(): Promise<void> {
	await nextTick();
	await vi.advanceTimersByTimeAsync(MIN_RENDER_INTERVAL_MS);
}

beforeEach(() => {
	vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
	vi.useRealTimers();
});

describe("render scheduling", () => {
	it("coalesces many requests into one frame", async () => {
		const content = new Lines(["a"]);
		const { term, tui } = startScreen([content]);
		await afterFirstFrame();
		term.clearRawOutput();
		for (let i = 0; i < 100; i++) {
			content.set([`value ${i}`]);
			tui.requestRender();
			vi.advanceTimersByTime(0.05);
		}
		await nextTick();
		await vi.advanceTimersByTimeAsync(MIN_RENDER_INTERVAL_MS);
		expect(frames(term)).toBe(1);
		await term.flush();
		expect(term.getViewport()[0]).toBe("value 99");
		tui.stop();
	});

	it("keeps frames at least 16 ms apart under continuous requests", async () => {
		const term = new VirtualTerminal(40, 10);
		const tui = new TuiMainScreen(term);
		const content = new Lines(["a"]);
		tui.addChild(content);
		const frameTimes: number[] = [];
		const write = term.write.bind(term);
		term.write = (data: string) => {
			if (data.includes("\x1b[?2026h")) frameTimes.push(Date.now());
			write(data);
		};
		tui.start();
		for (let i = 0; i < 200; i++) {
			content.set([`v${i}`]);
			tui.requestRender();
			await nextTick();
			await vi.advanceTimersByTimeAsync(1);
		}
		expect(frameTimes.length).toBeGreaterThan(5);
		for (let i = 1; i < frameTimes.length; i++) {
			expect(frameTimes[i]! - frameTimes[i - 1]!).toBeGreaterThanOrEqual(MIN_RENDER_INTERVAL_MS);
		}
		tui.stop();
	});

	it("renders keyboard input on the next tick, cancelling a pending throttled frame", async () => {
		const log = new KeyLog();
		const { term, tui } = startScreen([log], log);
		await afterFirstFrame();
		// A throttled frame is now pending (the last frame was just rendered).
		tui.requestRender();
		await nextTick();
		term.clearRawOutput();
		const rendersBefore = log.renders;
		term.sendInput("x");
		await nextTick();
		expect(frames(term)).toBe(1);
		expect(log.renders).toBe(rendersBefore + 1);
		// The throttled frame that was pending must not run afterwards.
		await vi.advanceTimersByTimeAsync(5 * MIN_RENDER_INTERVAL_MS);
		expect(log.renders).toBe(rendersBefore + 1);
		await term.flush();
		expect(term.getViewport()[0]).toBe("keys: 1");
		tui.stop();
	});

	it("deferred updates: the latest per key runs once, before the next paced frame", async () => {
		const content = new Lines(["a"]);
		const { term, tui } = startScreen([content]);
		await afterFirstFrame();
		const applied: number[] = [];
		for (let i = 0; i < 50; i++)
			tui.deferUpdate(content, () => {
				applied.push(i);
				content.set([`chunk ${i}`]);
			});
		expect(applied).toEqual([]);
		await nextTick();
		await vi.advanceTimersByTimeAsync(MIN_RENDER_INTERVAL_MS);
		expect(applied).toEqual([49]);
		await term.flush();
		expect(term.getViewport()[0]).toBe("chunk 49");
		tui.stop();
	});

	it("a keystroke frame does not wait for deferred updates; the next paced frame applies them", async () => {
		const log = new KeyLog();
		const streamed = new Lines(["stream 0"]);
		const { term, tui } = startScreen([streamed, log], log);
		await afterFirstFrame();
		let applied = 0;
		tui.deferUpdate(streamed, () => {
			applied++;
			streamed.set(["stream 1"]);
		});
		term.sendInput("x");
		await nextTick();
		// Lets the terminal parse the keystroke's frame; the paced frame is not due yet.
		await vi.advanceTimersByTimeAsync(1);
		await term.flush();
		expect(term.getViewport().slice(0, 2)).toEqual(["stream 0", "keys: 1"]);
		expect(applied).toBe(0);
		await vi.advanceTimersByTimeAsync(MIN_RENDER_INTERVAL_MS);
		await term.flush();
		expect(applied).toBe(1);
		expect(term.getViewport()[0]).toBe("stream 1");
		tui.stop();
	});

	it("flushUpdate and renderNow apply a waiting update at once", async () => {
		const content = new Lines(["a"]);
		const { term, tui } = startScreen([content]);
		tui.deferUpdate(content, () => content.set(["flushed"]));
		tui.flushUpdate(content);
		expect(content.lines).toEqual(["flushed"]);
		// Nothing is left to run later.
		tui.deferUpdate("other", () => content.set(["rendered"]));
		tui.renderNow();
		await vi.advanceTimersByTimeAsync(1);
		await term.flush();
		expect(term.getViewport()[0]).toBe("rendered");
		tui.flushUpdate("other");
		expect(content.lines).toEqual(["rendered"]);
		tui.stop();
	});

	it("filters key-release events unless the component wants them", async () => {
		const log = new KeyLog();
		const { term, tui } = startScreen([log], log);
		term.sendInput("\x1b[97;1:3u");
		expect(log.keys).toEqual([]);
		// A paste whose text looks like a release suffix is still delivered.
		term.sendPaste("ab:3u");
		expect(log.keys).toEqual(["\x1b[200~ab:3u\x1b[201~"]);
		log.wantsKeyRelease = true;
		term.sendInput("\x1b[97;1:3u");
		expect(log.keys).toEqual(["\x1b[200~ab:3u\x1b[201~", "\x1b[97;1:3u"]);
		tui.stop();
	});

	it("input listeners can consume or rewrite input", async () => {
		const log = new KeyLog();
		const { term, tui } = startScreen([log], log);
		const remove = tui.addInputListener((d) =>
			d === "a" ? { consume: true } : d === "b" ? { data: "B" } : undefined,
		);
		term.sendInput("abc");
		expect(log.keys).toEqual(["B", "c"]);
		remove();
		term.sendInput("a");
		expect(log.keys).toEqual(["B", "c", "a"]);
		tui.stop();
	});
});
