import { rmSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness } from "../agent-session/harness.js";
import { tempDir } from "../support/isolated-session.js";
import { registerWeatherTool } from "../support/weather-tool.js";
import { openExport } from "./browser.js";
import { CHROMIUM, launchChromium, NO_CHROMIUM_REASON } from "./chromium.js";

const describeInBrowser = CHROMIUM ? describe : describe.skip;
if (!CHROMIUM) console.warn(`extension render export tests skipped: ${NO_CHROMIUM_REASON}`);

/** An extension tool that draws itself in the TUI (docs/extensions.md, tool renderers), one line per state. */
const weatherExtension = (pi: ExtensionAPI) =>
	registerWeatherTool(pi, {
		renderCall: (args) => ({ render: () => [`FORECAST FOR \x1b[33m${args.city}\x1b[39m`], invalidate: () => {} }),
		renderResult: (result, options) => ({
			render: () => [
				`TEMPERATURE ${result.details?.temperature}`,
				...(options.expanded ? ["WIND 3 m/s from the west"] : []),
			],
			invalidate: () => {},
		}),
	});

describeInBrowser("extension tools in the HTML export", () => {
	let browser: Awaited<ReturnType<typeof launchChromium>>;
	const dirs: string[] = [];

	beforeAll(async () => {
		browser = await launchChromium();
	});

	afterAll(async () => {
		await browser?.close();
		for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
	});

	it("are drawn by the extension's own renderCall/renderResult, collapsed and expanded, with colour", async () => {
		const h = await createHarness({ loader: { extensionFactories: [weatherExtension] } });
		dirs.push(h.cwd);
		h.faux.setResponses([
			fauxAssistantMessage(fauxToolCall("weather", { city: "Oslo" }, { id: "w1" }), { stopReason: "toolUse" }),
			fauxAssistantMessage("It is mild in Oslo."),
		]);
		await h.session.prompt("weather?");
		const file = await h.session.exportToHtml(join(tempDir("tau-export-ext-"), "weather.html"));
		dirs.push(join(file, ".."));
		const { page, context, trouble, violations } = await openExport(browser, file);
		const tool = page.locator("#messages .tool").filter({ hasText: "FORECAST FOR" });
		expect(await tool.locator(".tool-title").innerText()).toContain("FORECAST FOR Oslo");
		const city = tool.locator(".tool-title span", { hasText: "Oslo" }).last();
		expect(await city.evaluate((element) => getComputedStyle(element).color)).not.toBe(
			await tool.evaluate((element) => getComputedStyle(element).color),
		);
		const result = tool.locator(".rendered-result");
		expect(await result.innerText()).toContain("TEMPERATURE 21");
		expect(await result.innerText()).not.toContain("WIND");
		// The extension's rendering replaces the built-in one, as in the terminal.
		expect(await tool.innerText()).not.toContain("raw Oslo data");
		await result.getByRole("button", { name: "Expand" }).click();
		expect(await result.innerText()).toContain("WIND 3 m/s from the west");
		expect(await page.locator("#messages").innerText()).toContain("It is mild in Oslo.");
		expect(await violations()).toEqual([]);
		await context.close();
		expect(trouble).toEqual({ consoleErrors: [], requests: [], dialogs: [] });
	});
});
