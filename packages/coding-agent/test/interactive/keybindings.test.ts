import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage } from "@tau/ai";
import { isValidKeyId, KeybindingsManager } from "@tau/tui";
import { afterEach, describe, expect, it } from "vitest";
import {
	appKeybindingDefinitions,
	parseUserKeybindings,
} from "../../src/modes/interactive/keybindings/app-keybindings.js";
import { gatedStep, InteractiveHarness, KEYS } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

describe("keybindings.json", () => {
	it("migrates legacy names (namespaced wins), drops invalid key ids and keeps unknown actions", () => {
		const { bindings } = parseUserKeybindings(
			JSON.stringify({
				$schema: "x",
				followUp: "ctrl+q",
				interrupt: "ctrl+g",
				"app.interrupt": "ctrl+x",
				"app.clear": "ctrl+ctrl+x",
				"tui.altScreen.pageUp": [],
				"my.extension.action": "alt+m",
			}),
		);
		expect(bindings).toEqual({
			"app.message.followUp": ["ctrl+q"],
			"app.interrupt": ["ctrl+x"],
			"tui.altScreen.pageUp": [],
			"my.extension.action": ["alt+m"],
		});
	});

	it("ignores invalid JSON and non-objects with a reported problem", () => {
		expect(parseUserKeybindings("{nope").problem).toMatch(/Invalid keybindings\.json/);
		expect(parseUserKeybindings("[1]")).toEqual({
			bindings: {},
			problem: "Invalid keybindings.json: expected a JSON object",
		});
	});

	it("validates the key id grammar", () => {
		expect(["ctrl+shift+alt+super+k", "escape", "f12", "ctrl+/", "pageUp", "shift+enter"].every(isValidKeyId)).toBe(
			true,
		);
		expect(["ctrl+ctrl+x", "hyper+x", "ctrl+", "", "ctrl+f13", "enterr"].some(isValidKeyId)).toBe(false);
	});

	it("an empty list disables an action; a value replaces its defaults", () => {
		const manager = new KeybindingsManager(appKeybindingDefinitions("linux", {}), {
			"tui.altScreen.pageUp": [],
			"app.message.followUp": ["ctrl+q"],
		});
		expect(manager.getKeys("tui.altScreen.pageUp")).toEqual([]);
		expect(manager.getKeys("app.message.followUp")).toEqual(["ctrl+q"]);
	});

	it("uses the Windows defaults under WSL", () => {
		const manager = new KeybindingsManager(appKeybindingDefinitions("linux", { WSL_DISTRO_NAME: "Ubuntu" }));
		expect(manager.getKeys("app.message.followUp")).toEqual(["ctrl+q"]);
		expect(manager.getKeys("app.message.dequeue")).toEqual(["alt+q"]);
		expect(manager.getKeys("tui.editor.undo")).toEqual(["alt+z"]);
		expect(manager.getKeys("tui.altScreen.search")).toEqual(["ctrl+f"]);
		const native = new KeybindingsManager(appKeybindingDefinitions("linux", {}));
		expect(native.getKeys("app.message.followUp")).toEqual(["alt+enter"]);
		expect(native.getKeys("tui.editor.undo")).toEqual(["ctrl+-"]);
	});

	it('"tui.altScreen.pageUp": [] stops PageUp from paging the fullscreen transcript', async () => {
		const PAGE_UP = "\x1b[5~";
		const pagedViewport = async (agentFiles: Record<string, string>) => {
			const h = await InteractiveHarness.start({ mode: { tuiMode: "fullscreen" }, rows: 20, agentFiles });
			harness = h;
			h.faux.setResponses(Array.from({ length: 6 }, (_, i) => fauxAssistantMessage(`reply number ${i}`)));
			for (let i = 0; i < 6; i++) {
				const since = h.eventCount;
				h.submit(`prompt ${i}`);
				await h.waitForEvent((event) => event.type === "agent_settled", since);
			}
			const before = (await h.viewport()).join("\n");
			h.terminal.press(PAGE_UP);
			const after = (await h.viewport()).join("\n");
			await h.close();
			harness = undefined;
			return { before, after };
		};
		const paged = await pagedViewport({});
		expect(paged.before).toContain("reply number 5");
		expect(paged.after).not.toBe(paged.before);
		const disabled = await pagedViewport({ "keybindings.json": JSON.stringify({ "tui.altScreen.pageUp": [] }) });
		expect(disabled.after).toBe(disabled.before);
	});

	it("/reload applies a changed follow-up key", async () => {
		harness = await InteractiveHarness.start();
		const gate = gatedStep(fauxAssistantMessage("done"));
		harness.faux.setResponses([gate.step]);
		writeFileSync(join(harness.agentDir, "keybindings.json"), JSON.stringify({ "app.message.followUp": "ctrl+q" }));
		harness.submit("/reload");
		await harness.until(async () => (await harness!.screen()).includes("Reloaded"));
		const since = harness.eventCount;
		harness.submit("work");
		await gate.started;
		harness.type("after");
		harness.terminal.press(KEYS.altEnter);
		expect(harness.mode.editor.getText()).not.toBe("");
		harness.mode.editor.setText("after");
		harness.terminal.press("\x11");
		await harness.waitForEvent((event) => event.type === "queue_update", since);
		expect(await harness.screen()).toContain("Follow-up: after");
		gate.open();
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
	});
});
