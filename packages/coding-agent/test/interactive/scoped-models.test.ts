import { fauxProvider } from "@tau/ai";
import { afterEach, describe, expect, it } from "vitest";
import { InteractiveHarness, KEYS } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

const SPACE = " ";
const CTRL_A = "\x01";
const CTRL_P = "\x10";
const CTRL_S = "\x13";
const CTRL_W = "\x17";
const CTRL_X = "\x18";
const ALT_UP = "\x1b[1;3A";
const UP = "\x1b[A";

const THREE_MODELS = { models: [{ id: "alpha" }, { id: "beta" }, { id: "gamma" }] };

async function openSelector(h: InteractiveHarness): Promise<void> {
	h.submit("/scoped-models");
	await h.until(async () => (await h.screen()).includes("Scoped models"));
}

function scopeIds(h: InteractiveHarness): string[] {
	return h.runtime.session.scopedModels.map((entry) => `${entry.model.provider}/${entry.model.id}`);
}

/** Presses Ctrl+P in the editor `count` times and returns the models it switched to. */
async function cycle(h: InteractiveHarness, count: number): Promise<string[]> {
	const seen: string[] = [];
	for (let i = 0; i < count; i++) {
		const before = h.runtime.session.model?.id;
		h.terminal.press(CTRL_P);
		await h.until(() => h.runtime.session.model?.id !== before);
		seen.push(h.runtime.session.model!.id);
	}
	return seen;
}

/** What the settings storage holds for the global file after pending writes (what settings.json would contain). */
async function storedGlobalSettings(h: InteractiveHarness): Promise<Record<string, unknown>> {
	const settings = h.runtime.session.settingsManager;
	await settings.flush();
	await settings.reload();
	return settings.getGlobalSettings() as Record<string, unknown>;
}

describe("/scoped-models", () => {
	it("shows that an empty scope means all models, and toggled models become the Ctrl+P cycle", async () => {
		harness = await InteractiveHarness.start(THREE_MODELS);
		await openSelector(harness);
		let screen = await harness.screen();
		expect(screen).toContain("No scope: cycling uses all available models");
		expect(screen).toContain(
			"Space toggle  Ctrl+S save  Ctrl+A all  Ctrl+X none  Ctrl+P provider  Alt+Up/Down move  Escape close",
		);
		// The current model (alpha) is selected first; enable it and gamma, leave beta out.
		harness.terminal.press(SPACE);
		harness.terminal.press(KEYS.down);
		harness.terminal.press(KEYS.down);
		harness.terminal.press(KEYS.enter);
		screen = await harness.screen();
		expect(screen).toContain("2 of 3 models in the cycling scope");
		expect(screen).toMatch(/\[x\] alpha[\s\S]*\[x\] gamma[\s\S]*\[ \] beta/);
		expect(scopeIds(harness)).toEqual(["faux/alpha", "faux/gamma"]);
		harness.terminal.press(KEYS.escape);
		await harness.until(async () => !(await harness!.screen()).includes("Scoped models"));
		expect(await cycle(harness, 3)).toEqual(["gamma", "alpha", "gamma"]);
	});

	it("reordering an enabled model changes the cycling order", async () => {
		harness = await InteractiveHarness.start(THREE_MODELS);
		await openSelector(harness);
		harness.terminal.press(CTRL_A);
		expect(scopeIds(harness)).toEqual(["faux/alpha", "faux/beta", "faux/gamma"]);
		harness.terminal.press(UP);
		harness.terminal.press(ALT_UP);
		expect(scopeIds(harness)).toEqual(["faux/alpha", "faux/gamma", "faux/beta"]);
		// At the top of the scope a model cannot move further up.
		harness.terminal.press(ALT_UP);
		harness.terminal.press(ALT_UP);
		expect(scopeIds(harness)).toEqual(["faux/gamma", "faux/alpha", "faux/beta"]);
		harness.terminal.press(KEYS.escape);
		expect(await cycle(harness, 3)).toEqual(["beta", "gamma", "alpha"]);
	});

	it("Ctrl+A enables every model and Ctrl+X clears the scope back to all models", async () => {
		harness = await InteractiveHarness.start(THREE_MODELS);
		await openSelector(harness);
		harness.terminal.press(KEYS.down);
		// Space as the Kitty keyboard protocol reports it.
		harness.terminal.press("\x1b[32u");
		expect(scopeIds(harness)).toEqual(["faux/beta"]);
		harness.terminal.press(CTRL_A);
		expect(scopeIds(harness)).toEqual(["faux/beta", "faux/alpha", "faux/gamma"]);
		expect(await harness.screen()).toContain("3 of 3 models in the cycling scope");
		harness.terminal.press(CTRL_X);
		expect(scopeIds(harness)).toEqual([]);
		const screen = await harness.screen();
		expect(screen).toContain("No scope: cycling uses all available models");
		expect(screen).not.toContain("[x]");
		harness.terminal.press(KEYS.escape);
		expect(await cycle(harness, 3)).toEqual(["beta", "gamma", "alpha"]);
	});

	it("Ctrl+P toggles every model of the selected model's provider; typing filters fuzzily", async () => {
		harness = await InteractiveHarness.start(THREE_MODELS);
		const other = fauxProvider({ provider: "other", models: [{ id: "delta" }, { id: "epsilon" }] });
		harness.runtime.session.modelRuntime.registerProvider("other", other.provider);
		await openSelector(harness);
		harness.type("epsln");
		let screen = await harness.screen();
		expect(screen).toContain("› epsln");
		expect(screen).toContain("[ ] epsilon");
		expect(screen).not.toContain("[ ] alpha");
		harness.terminal.press(CTRL_P);
		expect(scopeIds(harness)).toEqual(["other/delta", "other/epsilon"]);
		// One model of the provider disabled: the provider key enables it again rather than clearing.
		harness.terminal.press(SPACE);
		expect(scopeIds(harness)).toEqual(["other/delta"]);
		harness.terminal.press(CTRL_P);
		expect(scopeIds(harness)).toEqual(["other/delta", "other/epsilon"]);
		harness.terminal.press(CTRL_P);
		expect(scopeIds(harness)).toEqual([]);
		for (let i = 0; i < "epsln".length; i++) harness.terminal.press(KEYS.backspace);
		screen = await harness.screen();
		expect(screen).toContain("[ ] alpha");
		expect(screen).toContain("[ ] delta");
		harness.terminal.press(KEYS.escape);
	});

	it("Ctrl+S saves the scope to enabledModels in order, keeping each model's thinking suffix", async () => {
		harness = await InteractiveHarness.start({ ...THREE_MODELS, settings: { enabledModels: ["faux/gamma"] } });
		const models = harness.runtime.session.modelRuntime.getAvailableSnapshot();
		const beta = models.find((model) => model.id === "beta")!;
		const gamma = models.find((model) => model.id === "gamma")!;
		// As `--models faux/beta:high,faux/gamma` would have scoped the session.
		harness.runtime.session.setScopedModels([{ model: beta, thinkingLevel: "high" }, { model: gamma }]);
		await openSelector(harness);
		expect(await harness.screen()).toMatch(/\[x\] beta\s+faux · thinking high/);
		// alpha (the current model) is selected: enable it, then switch beta off and on again.
		harness.terminal.press(SPACE);
		harness.terminal.press(UP);
		harness.terminal.press(UP);
		harness.terminal.press(SPACE);
		harness.terminal.press(SPACE);
		expect(scopeIds(harness)).toEqual(["faux/gamma", "faux/alpha", "faux/beta"]);
		harness.terminal.press(CTRL_S);
		await harness.until(async () => !(await harness!.screen()).includes("Scoped models"));
		expect(await harness.screen()).toContain("Saved 3 scoped model(s) to enabledModels");
		expect((await storedGlobalSettings(harness)).enabledModels).toEqual([
			"faux/gamma",
			"faux/alpha",
			"faux/beta:high",
		]);
		expect(harness.runtime.session.scopedModels.find((entry) => entry.model.id === "beta")?.thinkingLevel).toBe(
			"high",
		);
	});

	it("Escape keeps the changes for this session only; saving an empty scope removes enabledModels", async () => {
		harness = await InteractiveHarness.start({ ...THREE_MODELS, settings: { enabledModels: ["faux/alpha"] } });
		await openSelector(harness);
		harness.terminal.press(CTRL_A);
		harness.terminal.press(KEYS.escape);
		await harness.until(async () => !(await harness!.screen()).includes("Scoped models"));
		expect(scopeIds(harness)).toEqual(["faux/alpha", "faux/beta", "faux/gamma"]);
		expect((await storedGlobalSettings(harness)).enabledModels).toEqual(["faux/alpha"]);

		await openSelector(harness);
		expect(await harness.screen()).toContain("3 of 3 models in the cycling scope");
		harness.terminal.press(CTRL_X);
		harness.terminal.press(CTRL_S);
		await harness.until(async () => (await harness!.screen()).includes("Cleared enabledModels"));
		expect(await storedGlobalSettings(harness)).not.toHaveProperty("enabledModels");
	});

	it("honours a user binding for app.models.save in the keys and the hint", async () => {
		harness = await InteractiveHarness.start({
			...THREE_MODELS,
			agentFiles: { "keybindings.json": JSON.stringify({ "app.models.save": "ctrl+w" }) },
		});
		await openSelector(harness);
		expect(await harness.screen()).toContain("Space toggle  Ctrl+W save  Ctrl+A all");
		harness.terminal.press(SPACE);
		harness.terminal.press(CTRL_S);
		expect(await harness.screen()).toContain("Scoped models");
		expect(await storedGlobalSettings(harness)).not.toHaveProperty("enabledModels");
		harness.terminal.press(CTRL_W);
		await harness.until(async () => !(await harness!.screen()).includes("Scoped models"));
		expect((await storedGlobalSettings(harness)).enabledModels).toEqual(["faux/alpha"]);
	});
});

describe("saving a default model while scoped", () => {
	async function saveDefault(h: InteractiveHarness, id: string): Promise<void> {
		h.submit("/model");
		await h.until(async () => (await h.screen()).includes("Select model"));
		h.type(id);
		h.terminal.press(CTRL_S);
		await h.until(() => h.runtime.session.settingsManager.getDefaultModel() === id);
	}

	it("adds the model to the scope and to enabledModels once (case-insensitive)", async () => {
		harness = await InteractiveHarness.start({
			...THREE_MODELS,
			settings: { enabledModels: ["faux/alpha", "FAUX/GAMMA"] },
		});
		const alpha = harness.runtime.session.model!;
		harness.runtime.session.setScopedModels([{ model: alpha }]);

		await saveDefault(harness, "beta");
		expect(scopeIds(harness)).toEqual(["faux/alpha", "faux/beta"]);
		expect((await storedGlobalSettings(harness)).enabledModels).toEqual(["faux/alpha", "FAUX/GAMMA", "faux/beta"]);

		await saveDefault(harness, "gamma");
		expect(scopeIds(harness)).toEqual(["faux/alpha", "faux/beta", "faux/gamma"]);
		expect((await storedGlobalSettings(harness)).enabledModels).toEqual(["faux/alpha", "FAUX/GAMMA", "faux/beta"]);

		await saveDefault(harness, "beta");
		expect(scopeIds(harness)).toEqual(["faux/alpha", "faux/beta", "faux/gamma"]);
		expect((await storedGlobalSettings(harness)).enabledModels).toEqual(["faux/alpha", "FAUX/GAMMA", "faux/beta"]);
	});

	it("does not append a model the scope already holds (matched by a glob)", async () => {
		harness = await InteractiveHarness.start({ ...THREE_MODELS, settings: { enabledModels: ["faux/*"] } });
		harness.runtime.session.setScopedModels(
			harness.runtime.session.modelRuntime.getAvailableSnapshot().map((model) => ({ model })),
		);
		await saveDefault(harness, "beta");
		expect(scopeIds(harness)).toEqual(["faux/alpha", "faux/beta", "faux/gamma"]);
		expect((await storedGlobalSettings(harness)).enabledModels).toEqual(["faux/*"]);
	});

	it("leaves the scope and enabledModels alone when nothing is scoped", async () => {
		harness = await InteractiveHarness.start(THREE_MODELS);
		await saveDefault(harness, "beta");
		expect(scopeIds(harness)).toEqual([]);
		expect(await storedGlobalSettings(harness)).not.toHaveProperty("enabledModels");
	});
});
