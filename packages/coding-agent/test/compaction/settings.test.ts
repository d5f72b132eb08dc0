import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SettingsManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { tempDir } from "../session/helpers.js";

const big = { provider: "acme", id: "big/model-v2" };

describe("compaction settings resolution", () => {
	it("defaults, then ordinary values, then a model override, each field on its own", () => {
		expect(SettingsManager.inMemory().getCompactionSettings(big)).toEqual({
			enabled: true,
			reserveTokens: 16384,
			keepRecentTokens: 20000,
		});
		const settings = SettingsManager.inMemory({
			compaction: {
				enabled: false,
				reserveTokens: 1000,
				modelOverrides: { "acme/big/model-v2": { keepRecentTokens: 5 } },
			},
		});
		expect(settings.getCompactionSettings(big)).toEqual({ enabled: false, reserveTokens: 1000, keepRecentTokens: 5 });
		expect(settings.getCompactionSettings({ provider: "acme", id: "small" })).toEqual({
			enabled: false,
			reserveTokens: 1000,
			keepRecentTokens: 20000,
		});
		// Keys are exact and case-sensitive.
		expect(settings.getCompactionSettings({ provider: "Acme", id: "big/model-v2" }).keepRecentTokens).toBe(20000);
		expect(settings.getCompactionSettings().keepRecentTokens).toBe(20000);
	});

	it("rejects an invalid ordinary value even when the active model has an override", () => {
		for (const value of [-1, 1.5, 2 ** 53, "100"]) {
			const settings = SettingsManager.inMemory({
				compaction: {
					reserveTokens: value as never,
					modelOverrides: { "acme/big/model-v2": { reserveTokens: 10 } },
				},
			});
			expect(() => settings.getCompactionSettings(big)).toThrow(
				// Scalars are printed as Pi prints them: the string "100" as 100.
				`Invalid compaction.reserveTokens setting: ${String(value)}. Expected a non-negative safe integer.`,
			);
		}
	});

	it("rejects a matching override that is not an object, or holds an invalid field", () => {
		const notObject = SettingsManager.inMemory({ compaction: { modelOverrides: { "a/b": [] as never } } });
		expect(() => notObject.getCompactionSettings({ provider: "a", id: "b" })).toThrow(
			'Invalid compaction.modelOverrides["a/b"] setting: []. Expected an object.',
		);
		const badField = SettingsManager.inMemory({
			compaction: { modelOverrides: { "a/b": { keepRecentTokens: -2 } } },
		});
		expect(() => badField.getCompactionSettings({ provider: "a", id: "b" })).toThrow(
			'Invalid compaction.modelOverrides["a/b"].keepRecentTokens setting: -2. Expected a non-negative safe integer.',
		);
	});

	it("does not validate overrides of other models", () => {
		const settings = SettingsManager.inMemory({
			compaction: {
				reserveTokens: 300,
				modelOverrides: { "x/y": 5 as never, "p/q": { reserveTokens: -1 } },
			},
		});
		expect(settings.getCompactionSettings({ provider: "a", id: "b" }).reserveTokens).toBe(300);
		expect(settings.getCompactionSettings().reserveTokens).toBe(300);
		expect(() => settings.getCompactionSettings({ provider: "p", id: "q" })).toThrow(/modelOverrides\["p\/q"\]/);
	});

	it("user and project settings merge first: a user model override beats a project ordinary value", () => {
		const agentDir = tempDir();
		const cwd = tempDir();
		writeFileSync(
			join(agentDir, "settings.json"),
			JSON.stringify({ compaction: { modelOverrides: { "acme/big/model-v2": { reserveTokens: 400000 } } } }),
		);
		mkdirSync(join(cwd, ".tau"));
		writeFileSync(join(cwd, ".tau", "settings.json"), JSON.stringify({ compaction: { reserveTokens: 2000 } }));
		const settings = SettingsManager.create(cwd, agentDir, { projectTrusted: true });
		expect(settings.getCompactionSettings(big).reserveTokens).toBe(400000);
		expect(settings.getCompactionSettings({ provider: "acme", id: "small" }).reserveTokens).toBe(2000);
	});
});
