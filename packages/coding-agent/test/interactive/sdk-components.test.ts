import {
	BorderedLoader,
	DynamicBorder,
	type ExtensionAPI,
	ExtensionInputComponent,
	ExtensionSelectorComponent,
	renderDiff,
	SettingsSelectorComponent,
	ShowImagesSelectorComponent,
	ThinkingSelectorComponent,
	truncateToVisualLines,
	UserMessageComponent,
} from "@tau/coding-agent";
import { visibleWidth } from "@tau/tui";
import { afterEach, describe, expect, it } from "vitest";
import { InteractiveHarness, KEYS } from "./harness.js";

const tui = { requestRender: () => {}, terminal: { columns: 80, rows: 24 } } as never;
const plain = (lines: readonly string[]) => lines.map((line) => line.replace(/\x1b\[[0-9;]*m/g, ""));

/** Components with pi's constructor signatures, as extensions build them (docs/extensions.md). */
describe("components for extensions", () => {
	it("DynamicBorder spans the width in the given colour", () => {
		expect(new DynamicBorder((text) => `<${text}>`).render(5)).toEqual(["<─────>"]);
		expect(visibleWidth(new DynamicBorder().render(12)[0]!)).toBe(12);
	});

	it("BorderedLoader aborts its signal and calls onAbort when cancelled with Escape", () => {
		const theme = { fg: (_token: string, text: string) => text } as never;
		const loader = new BorderedLoader(tui, theme, "Working…");
		let aborted = false;
		loader.onAbort = () => {
			aborted = true;
		};
		expect(plain(loader.render(40)).join("\n")).toContain("Working…");
		loader.handleInput(KEYS.escape);
		expect(loader.signal.aborted).toBe(true);
		expect(aborted).toBe(true);
		loader.dispose();
		const fixed = new BorderedLoader(tui, theme, "Busy", { cancellable: false });
		fixed.handleInput(KEYS.escape);
		expect(fixed.signal.aborted).toBe(false);
		fixed.dispose();
	});

	it("selector components report the chosen value or a cancel", () => {
		const picked: unknown[] = [];
		const thinking = new ThinkingSelectorComponent(
			"low",
			["off", "low", "high"],
			(level) => picked.push(level),
			() => picked.push("cancel"),
		);
		thinking.handleInput(KEYS.down);
		thinking.handleInput(KEYS.enter);
		const images = new ShowImagesSelectorComponent(
			true,
			(show) => picked.push(show),
			() => picked.push("cancel"),
		);
		images.handleInput(KEYS.enter);
		const choice = new ExtensionSelectorComponent(
			"Pick",
			["a", "b"],
			(option) => picked.push(option),
			() => picked.push("cancel"),
		);
		choice.handleInput(KEYS.escape);
		expect(picked).toEqual(["high", true, "cancel"]);
		expect(plain(choice.render(40)).join("\n")).toContain("Pick");
	});

	it("ExtensionInputComponent submits the typed line", () => {
		const submitted: string[] = [];
		const input = new ExtensionInputComponent(
			"Name",
			"type here",
			(value) => submitted.push(value),
			() => {},
		);
		for (const char of "tau") input.handleInput(char);
		input.handleInput(KEYS.enter);
		expect(submitted).toEqual(["tau"]);
	});

	it("SettingsSelectorComponent calls the change callback of the setting it cycles", () => {
		const changes: unknown[] = [];
		const selector = new SettingsSelectorComponent(
			{ autoCompact: true, steeringMode: "all" },
			{
				onAutoCompactChange: (value: boolean) => changes.push(value),
				onSteeringModeChange: (mode: string) => changes.push(mode),
				onCancel: () => {},
			},
		);
		selector.getSettingsList().handleInput(KEYS.enter);
		selector.getSettingsList().handleInput(KEYS.down);
		selector.getSettingsList().handleInput(KEYS.enter);
		expect(changes).toEqual([false, "one-at-a-time"]);
	});

	it("UserMessageComponent renders the text; renderDiff colours an edit diff; truncateToVisualLines counts wrapped lines", () => {
		expect(plain(new UserMessageComponent("hello there").render(40)).join("\n")).toContain("hello there");
		const diff = renderDiff("-1 const a = 1;\n+1 const a = 2;\n 2 keep");
		expect(plain(diff.split("\n"))).toEqual(["-1 const a = 1;", "+1 const a = 2;", " 2 keep"]);
		expect(diff).toContain("\x1b[7m");
		expect(truncateToVisualLines("x".repeat(50), 2, 10)).toMatchObject({ skippedCount: 3 });
		expect(truncateToVisualLines("", 2, 10)).toEqual({ visualLines: [], skippedCount: 0 });
	});
});

let harness: InteractiveHarness | undefined;
afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

describe("virtual models in the TUI", () => {
	it("/model lists an extension's virtual model and selecting it routes the next answer", async () => {
		harness = await InteractiveHarness.start({
			loader: {
				extensionFactories: [
					(pi: ExtensionAPI) =>
						pi.registerVirtualModel({
							provider: "router",
							id: "auto",
							name: "Auto",
							route: (_request, ctx) => ({
								model: ctx.modelRegistry.find("faux", "faux-1")!,
								thinkingLevel: "off",
							}),
						}),
				],
			},
		});
		harness.submit("/model auto");
		await harness.until(async () => (await harness!.screen()).includes("router"));
		harness.terminal.press(KEYS.enter);
		await harness.until(() => harness!.runtime.session.model?.provider === "router");
		await harness.answer("hello", "routed");
		expect(harness.runtime.session.routedModel?.model.id).toBe("faux-1");
		expect(harness.runtime.session.messages.at(-1)).toMatchObject({ role: "assistant", model: "faux-1" });
	});
});
