import { SettingsManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import {
	applyToolModifiers,
	getToolListError,
	InMemorySettingsStorage,
	isToolModifier,
	mergeSettings,
	migrateSettings,
} from "../../src/config/index.js";

describe("mergeSettings", () => {
	it("merges objects deeply so a project key keeps the user's sibling keys", () => {
		const merged = mergeSettings(
			{ compaction: { enabled: false, reserveTokens: 1000 } },
			{ compaction: { keepRecentTokens: 40000 } },
		);
		expect(merged.compaction).toEqual({ enabled: false, reserveTokens: 1000, keepRecentTokens: 40000 });
	});

	it("replaces arrays, skips undefined and lets null replace", () => {
		const merged = mergeSettings(
			{ enabledModels: ["a", "b"], theme: "dark", terminal: { showImages: true } },
			{ enabledModels: ["c"], theme: undefined, terminal: null as never },
		);
		expect(merged.enabledModels).toEqual(["c"]);
		expect(merged.theme).toBe("dark");
		expect(merged.terminal).toBeNull();
	});

	it("accumulates defaultTools modifiers and lets a plain list replace", () => {
		expect(
			mergeSettings({ defaultTools: ["+grep"] }, { defaultTools: ["-bash", "+powershell"] }).defaultTools,
		).toEqual(["+grep", "-bash", "+powershell"]);
		expect(mergeSettings({ defaultTools: ["read", "bash"] }, { defaultTools: ["ls"] }).defaultTools).toEqual(["ls"]);
		expect(mergeSettings({ defaultTools: "x" as never }, { defaultTools: ["+a"] }).defaultTools).toEqual(["+a"]);
	});
});

describe("defaultTools resolution", () => {
	it("resolves the spec examples across layers", () => {
		const resolve = (user: string[], project: string[]) =>
			SettingsManager.fromStorage(
				new InMemorySettingsStorage(
					JSON.stringify({ defaultTools: user }),
					JSON.stringify({ defaultTools: project }),
				),
			).getDefaultTools();
		expect(resolve(["+grep"], ["-bash", "+powershell"])).toEqual(["read", "edit", "write", "grep", "powershell"]);
		expect(resolve(["read", "bash"], ["+grep"])).toEqual(["read", "bash", "grep"]);
		expect(resolve(["read", "bash"], ["ls"])).toEqual(["ls"]);
	});

	it("is undefined when unset and empty when the list is empty (disables built-ins)", () => {
		expect(SettingsManager.inMemory({}).getDefaultTools()).toBeUndefined();
		expect(SettingsManager.inMemory({ defaultTools: [] }).getDefaultTools()).toEqual([]);
		expect(SettingsManager.inMemory({ defaultTools: ["read", 7 as never, "+grep"] }).getDefaultTools()).toEqual([
			"read",
			"grep",
		]);
	});

	it("applies CLI modifiers to the resolved defaults", () => {
		const defaults = SettingsManager.inMemory({ defaultTools: ["+grep"] }).getDefaultTools();
		expect(applyToolModifiers(["-edit", "+ls"], defaults)).toEqual(["read", "bash", "write", "grep", "ls"]);
	});

	it("reports mixed lists and patterns in modifiers", () => {
		expect(isToolModifier("+x")).toBe(true);
		expect(isToolModifier("x")).toBe(false);
		expect(getToolListError(["read", "+grep"])).toBe("tool names cannot be mixed with +name or -name entries");
		expect(getToolListError(["+gr*"])).toBe("+name and -name entries take exact tool names, not patterns: +gr*");
		expect(getToolListError(["read", "bash"])).toBeUndefined();
		expect(getToolListError(["+grep", "-bash"])).toBeUndefined();
	});
});

describe("migrateSettings", () => {
	it("moves queueMode to steeringMode unless steeringMode exists", () => {
		expect(migrateSettings({ queueMode: "all" })).toEqual({ steeringMode: "all" });
		expect(migrateSettings({ queueMode: "all", steeringMode: "one-at-a-time" })).toEqual({
			queueMode: "all",
			steeringMode: "one-at-a-time",
		});
	});

	it("turns the websockets boolean into transport", () => {
		expect(migrateSettings({ websockets: true })).toEqual({ transport: "websocket" });
		expect(migrateSettings({ websockets: false })).toEqual({ transport: "sse" });
		expect(migrateSettings({ websockets: true, transport: "auto" })).toEqual({ websockets: true, transport: "auto" });
	});

	it("flattens the legacy skills object", () => {
		expect(migrateSettings({ skills: { enableSkillCommands: false, customDirectories: ["~/s"] } })).toEqual({
			enableSkillCommands: false,
			skills: ["~/s"],
		});
		expect(migrateSettings({ skills: { customDirectories: [] } })).toEqual({});
		expect(migrateSettings({ enableSkillCommands: true, skills: { enableSkillCommands: false } })).toEqual({
			enableSkillCommands: true,
		});
	});

	it("moves retry.maxDelayMs to retry.provider.maxRetryDelayMs", () => {
		expect(migrateSettings({ retry: { maxDelayMs: 5000, enabled: true } })).toEqual({
			retry: { enabled: true, provider: { maxRetryDelayMs: 5000 } },
		});
		expect(migrateSettings({ retry: { maxDelayMs: 5000, provider: { maxRetryDelayMs: 7 } } })).toEqual({
			retry: { provider: { maxRetryDelayMs: 7 } },
		});
	});
});
