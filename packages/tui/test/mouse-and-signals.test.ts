import { Input, type SelectItem, SelectList, TuiAltScreen, TuiMainScreen, VStack } from "@tau/tui";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Lines, nextTick } from "./helpers/components.js";
import { plainSelectListTheme } from "./helpers/themes.js";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

const sgrMouse = (b: number, x: number, y: number, release = false) =>
	`\x1b[<${b};${x + 1};${y + 1}${release ? "m" : "M"}`;

beforeEach(() => {
	vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
	vi.useRealTimers();
});

describe("mouse routing in the alternate screen", () => {
	it("a click on a SelectList row selects and activates it; the wheel moves the selection", async () => {
		const term = new VirtualTerminal(40, 10);
		const tui = new TuiAltScreen(term);
		const items: SelectItem[] = ["a", "b", "c", "d"].map((v) => ({ value: v, label: v }));
		const list = new SelectList(items, 4, plainSelectListTheme);
		const chosen: string[] = [];
		list.onSelect = (i) => chosen.push(i.value);
		tui.setLayoutRoot(
			new VStack([
				{ component: new Lines(["header"]), basis: 1 },
				{ component: list, grow: 1 },
			]),
		);
		tui.start();
		tui.renderNow();
		term.sendInput(sgrMouse(0, 3, 3));
		term.sendInput(sgrMouse(0, 3, 3, true));
		expect(chosen).toEqual(["c"]);
		expect(tui.getFocused()).toBe(list);
		term.sendInput(sgrMouse(65, 3, 2));
		expect(list.getSelectedIndex()).toBe(3);
		term.sendInput(sgrMouse(35, 3, 1)); // hover without a button
		expect(list.getSelectedIndex()).toBe(3);
		tui.stop();
	});

	it("a click in an Input moves its cursor and focuses it", () => {
		const term = new VirtualTerminal(40, 5);
		const tui = new TuiAltScreen(term);
		const input = new Input();
		input.setValue("hello world");
		tui.setLayoutRoot(new VStack([{ component: input, basis: 1 }]));
		tui.start();
		tui.renderNow();
		term.sendInput(sgrMouse(0, 2 + 6, 0));
		term.sendInput(sgrMouse(0, 2 + 6, 0, true));
		expect(input.getCursor()).toBe(6);
		expect(input.focused).toBe(true);
		tui.stop();
	});
});

describe("copy feedback", () => {
	it("a failing copySelection flashes its error message", async () => {
		const term = new VirtualTerminal(40, 5);
		const tui = new TuiAltScreen(term, false, undefined, { copySelection: async () => "No clipboard" });
		tui.addChild(new Lines(["alpha beta", "", "", "", ""]));
		tui.start();
		tui.renderNow();
		term.sendInput(sgrMouse(0, 0, 0));
		term.sendInput(sgrMouse(32, 4, 0));
		term.sendInput(sgrMouse(0, 4, 0, true));
		await vi.advanceTimersByTimeAsync(0);
		expect(tui.hasActiveSelection()).toBe(true);
		tui.renderNow();
		expect(tui.getScreenLines()[0]).toContain(" No clipboard ");
		expect(term.getRawOutput()).not.toContain("\x1b]52;");
		tui.stop();
	});
});

describe("suspend signal handler", () => {
	it("SIGTSTP invokes the handler only while the TUI owns the terminal", async () => {
		const term = new VirtualTerminal(40, 5);
		const tui = new TuiMainScreen(term);
		const handler = vi.fn();
		const before = process.listenerCount("SIGTSTP");
		tui.setSuspendSignalHandler(handler);
		expect(process.listenerCount("SIGTSTP")).toBe(before);
		tui.start();
		expect(process.listenerCount("SIGTSTP")).toBe(before + 1);
		process.emit("SIGTSTP", "SIGTSTP");
		expect(handler).toHaveBeenCalledOnce();
		tui.stop();
		expect(process.listenerCount("SIGTSTP")).toBe(before);
		await nextTick();
	});

	it("start registers exit and termination handlers; stop removes them", () => {
		const term = new VirtualTerminal(40, 5);
		const tui = new TuiMainScreen(term);
		const exits = process.listenerCount("exit");
		const terms = process.listenerCount("SIGTERM");
		tui.start();
		expect(process.listenerCount("exit")).toBe(exits + 1);
		expect(process.listenerCount("SIGTERM")).toBe(terms + 1);
		// Call only our handler: emitting "exit" would also run the test runner's listeners.
		const handler = process.listeners("exit").at(-1) as (code: number) => void;
		handler(0);
		expect(term.exitRestores).toEqual([{ before: "\x1b[?25h", after: "" }]);
		tui.stop();
		expect(process.listenerCount("exit")).toBe(exits);
		expect(process.listenerCount("SIGTERM")).toBe(terms);
	});
});
