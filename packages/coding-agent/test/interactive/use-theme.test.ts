import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionAPI } from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { completeTheme } from "../support/themes.js";
import { InteractiveHarness } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

/** A directory with two complete themes, `day` and `night`. */
function themesDir(): string {
	const dir = join(mkdtempSync(join(tmpdir(), "tau-use-theme-")), "themes");
	mkdirSync(dir);
	for (const [name, colour] of [
		["day", 15],
		["night", 0],
	] as const) {
		writeFileSync(join(dir, `${name}.json`), JSON.stringify(completeTheme(name, colour)));
	}
	return dir;
}

describe("--use-theme (a settings override of this run)", () => {
	it("wins over the theme setting, is seen by extensions, and survives /reload and /new without being saved", async () => {
		// What `session_start` handlers read from the effective settings, per start reason.
		const seen: [string, unknown][] = [];
		let started: (reason: string) => void = () => {};
		const nextStart = () =>
			new Promise<string>((resolve) => {
				started = resolve;
			});
		harness = await InteractiveHarness.start({
			settings: { theme: "day" },
			mode: { settingsOverrides: { theme: "night" } },
			loader: {
				noThemes: false,
				additionalThemePaths: [themesDir()],
				extensionFactories: [
					(pi: ExtensionAPI) => {
						pi.on("session_start", (event) => {
							seen.push([event.reason, pi.getSettings().theme]);
							started(event.reason);
						});
					},
				],
			},
		});
		const settings = () => harness!.runtime.session.settingsManager;
		expect(harness.mode.theme.name).toBe("night");
		expect(seen).toEqual([["startup", "night"]]);

		// `/reload` re-reads the settings files, which drops runtime overrides: the mode re-applies them.
		const reloaded = nextStart();
		harness.submit("/reload");
		expect(await reloaded).toBe("reload");
		await harness.until(async () => (await harness!.screen()).includes("Reloaded"));
		expect(seen.at(-1)).toEqual(["reload", "night"]);
		expect(settings().getTheme()).toBe("night");
		expect(harness.mode.theme.name).toBe("night");

		const replaced = nextStart();
		harness.submit("/new");
		expect(await replaced).toBe("new");
		expect(seen.at(-1)).toEqual(["new", "night"]);
		expect(settings().getTheme()).toBe("night");

		// Never written: the user's own setting is untouched.
		expect(settings().getGlobalSettings().theme).toBe("day");
	});
});
