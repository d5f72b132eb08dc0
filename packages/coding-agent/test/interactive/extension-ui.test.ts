import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import { type ExtensionAPI, Theme } from "@tau/coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { REQUIRED_THEME_TOKENS } from "../../src/core/resources/index.js";
import { registerWeatherTool } from "../support/weather-tool.js";
import { InteractiveHarness, KEYS } from "./harness.js";

let harness: InteractiveHarness | undefined;

afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

/** An extension with one command that runs `ask` and records what it returns. */
function askingExtension(ask: (ui: ExtensionUiOf) => Promise<unknown>, results: unknown[]) {
	return (pi: ExtensionAPI) => {
		pi.registerCommand("ask", {
			description: "asks",
			handler: async (_args, ctx) => {
				results.push(await ask(ctx.ui));
			},
		});
	};
}

type ExtensionUiOf = Parameters<Parameters<ExtensionAPI["registerCommand"]>[1]["handler"]>[1]["ui"];

const SHIFT_DOWN = "\x1b[1;2B";

/** The screen's words in order, however the lines were wrapped. */
const words = (lines: readonly string[]) => lines.join(" ").split(/\s+/).join(" ");

describe("dialogs never hide what they ask", () => {
	it("a confirm dialog shows all of a 400-character command, wrapped", async () => {
		const command = `rm -rf ${Array.from({ length: 40 }, (_, i) => `/srv/data/d${String(i).padStart(2, "0")}`).join(" ")}`;
		expect(command.length).toBeGreaterThanOrEqual(400);
		const results: unknown[] = [];
		harness = await InteractiveHarness.start({
			columns: 80,
			loader: { extensionFactories: [askingExtension((ui) => ui.confirm("Allow this command?", command), results)] },
		});
		harness.submit("/ask");
		await harness.until(async () => (await harness!.screen()).includes("Allow this command?"));
		expect(words(await harness.viewport())).toContain(command);
		harness.terminal.press(KEYS.enter);
		await harness.until(() => results.length === 1);
		expect(results).toEqual([true]);
	});

	for (const tuiMode of ["fullscreen", "regular"] as const) {
		it(`in a terminal too small for it (${tuiMode}), the title scrolls and all of the command is reachable`, async () => {
			const command = `rm -rf ${Array.from({ length: 40 }, (_, i) => `/srv/data/d${String(i).padStart(2, "0")}`).join(" ")}`;
			const results: unknown[] = [];
			harness = await InteractiveHarness.start({
				columns: 40,
				rows: 14,
				mode: { tuiMode },
				loader: {
					extensionFactories: [askingExtension((ui) => ui.confirm("Allow this command?", command), results)],
				},
			});
			harness.submit("/ask");
			await harness.until(async () => (await harness!.viewport()).some((l) => l.includes("Allow this command?")));
			// Scroll the title down row by row: every row of it passes through the viewport, and the
			// choices stay on screen throughout.
			const seen: string[] = [];
			for (let step = 0; step < 40; step++) {
				const screen = await harness.viewport();
				expect(screen.some((l) => l.includes("→ Yes"))).toBe(true);
				expect(screen.some((l) => /^\s*No\b/.test(l))).toBe(true);
				for (const line of screen) if (!seen.includes(line)) seen.push(line);
				if (!screen.some((l) => l.includes("↓"))) break;
				harness.terminal.press(SHIFT_DOWN);
			}
			const titleRows = seen.filter((l) => l.includes("/srv/data/"));
			expect(words(titleRows)).toBe(command);
			expect(seen.some((l) => l.includes("more lines"))).toBe(true);
			harness.terminal.press(KEYS.enter);
			await harness.until(() => results.length === 1);
			expect(results).toEqual([true]);
		});
	}

	it("the editor dialog keeps newlines, prefilled and typed", async () => {
		const results: unknown[] = [];
		harness = await InteractiveHarness.start({
			loader: {
				extensionFactories: [
					askingExtension((ui) => ui.editor("Edit the plan", "first line\nsecond line"), results),
				],
			},
		});
		harness.submit("/ask");
		await harness.until(async () => (await harness!.screen()).includes("Edit the plan"));
		const screen = await harness.viewport();
		expect(screen.some((line) => line.includes("first line"))).toBe(true);
		expect(screen.some((line) => line.includes("second line") && !line.includes("first line"))).toBe(true);
		harness.type("!");
		harness.terminal.press("\n");
		harness.type("third line");
		harness.terminal.press(KEYS.enter);
		await harness.until(() => results.length === 1);
		expect(results).toEqual(["first line\nsecond line!\nthird line"]);
	});

	it("a dialog with a timeout shows the seconds left", async () => {
		const results: unknown[] = [];
		harness = await InteractiveHarness.start({
			loader: {
				extensionFactories: [
					askingExtension((ui) => ui.select("Continue?", ["yes", "no"], { timeout: 30_000 }), results),
				],
			},
		});
		harness.submit("/ask");
		await harness.until(async () => (await harness!.screen()).includes("Continue?"));
		expect((await harness.viewport()).join("\n")).toMatch(/Continue\? \((30|29)s\)/);
		harness.terminal.press(KEYS.escape);
		await harness.until(() => results.length === 1);
		expect(results).toEqual([undefined]);
	});
});

describe("extension UI context (ctx.ui, hasUI: true)", () => {
	it("confirm, select and input dialogs replace the editor and report blocked status; notify, status and widgets render", async () => {
		const results: unknown[] = [];
		harness = await InteractiveHarness.start({
			extension: (pi: ExtensionAPI) => {
				pi.registerCommand("survey", {
					description: "asks questions",
					handler: async (_args, ctx) => {
						results.push(ctx.hasUI, ctx.mode);
						results.push(await ctx.ui.confirm("Proceed?", "This changes files"));
						results.push(await ctx.ui.select("Pick a colour", ["red", "green", "blue"]));
						results.push(await ctx.ui.input("Your name", "type here"));
						ctx.ui.notify("survey finished", "warning");
						ctx.ui.setStatus("survey", "survey: done");
						ctx.ui.setWidget("tips", ["widget line above"]);
						ctx.ui.setWidget("below", ["widget line below"], { placement: "belowEditor" });
					},
				});
			},
		});
		harness.submit("/survey");
		await harness.until(async () => (await harness!.screen()).includes("This changes files"));
		expect(harness.terminal.statuses.at(-1)).toMatchObject({
			state: "blocked",
			kind: "permission",
			message: "Proceed?",
		});
		harness.terminal.press(KEYS.enter);
		await harness.until(async () => (await harness!.screen()).includes("Pick a colour"));
		expect(harness.terminal.statuses.at(-1)).toMatchObject({ state: "blocked", kind: "question" });
		harness.type("gre");
		harness.terminal.press(KEYS.enter);
		await harness.until(async () => (await harness!.screen()).includes("Your name"));
		harness.type("Ada");
		harness.terminal.press(KEYS.enter);
		await harness.until(() => results.length === 5);
		expect(results).toEqual([true, "tui", true, "green", "Ada"]);
		const lines = await harness.viewport();
		const screen = lines.join("\n");
		expect(screen).toContain("Warning: survey finished");
		expect(screen).toContain("survey: done");
		const above = lines.findIndex((line) => line.includes("widget line above"));
		const below = lines.findIndex((line) => line.includes("widget line below"));
		const footer = lines.findIndex((line) => line.includes("survey: done"));
		expect(above).toBeGreaterThan(-1);
		expect(above).toBeLessThan(below);
		expect(below).toBeLessThan(footer);
		expect(harness.terminal.statuses.at(-1)?.state).toBe("idle");
	});

	it("Escape cancels a dialog with its default value", async () => {
		let answer: unknown = "unset";
		harness = await InteractiveHarness.start({
			extension: (pi: ExtensionAPI) => {
				pi.registerCommand("ask", {
					handler: async (_args, ctx) => {
						answer = await ctx.ui.select("Choose", ["a", "b"]);
					},
				});
			},
		});
		harness.submit("/ask");
		await harness.until(async () => (await harness!.screen()).includes("Choose"));
		harness.terminal.press(KEYS.escape);
		await harness.until(() => answer !== "unset");
		expect(answer).toBeUndefined();
		expect(harness.mode.editor.focused).toBe(true);
	});

	it("extension shortcuts run before application actions; extension commands are offered by autocomplete", async () => {
		let fired = 0;
		harness = await InteractiveHarness.start({
			extension: (pi: ExtensionAPI) => {
				pi.registerShortcut("ctrl+y", { description: "count", handler: () => void fired++ });
				pi.registerCommand("deploy", { description: "ship it", handler: async () => {} });
			},
		});
		harness.terminal.press("\x19");
		await harness.until(() => fired === 1);
		harness.type("/dep");
		await harness.until(async () => (await harness!.screen()).includes("ship it"));
	});

	it("custom messages use a registered renderer; entries without a renderer are not shown", async () => {
		harness = await InteractiveHarness.start({
			extension: (pi: ExtensionAPI) => {
				pi.registerMessageRenderer("weather", (message) => ({
					render: () => [`WEATHER WIDGET: ${JSON.stringify(message.details)}`],
					invalidate: () => {},
				}));
				pi.registerEntryRenderer("bookmark", (entry) => ({
					render: () => [`BOOKMARK ${String(entry.data)}`],
					invalidate: () => {},
				}));
				pi.registerCommand("report", {
					handler: async () => {
						pi.sendMessage({ customType: "weather", content: "sunny", display: true, details: { c: 21 } });
						pi.sendMessage({ customType: "plain", content: "plain custom text", display: true });
						pi.appendEntry("bookmark", "here");
						pi.appendEntry("hidden-entry", "nothing");
					},
				});
			},
		});
		harness.submit("/report");
		await harness.until(async () => (await harness!.screen()).includes("BOOKMARK here"));
		const screen = await harness.screen();
		expect(screen).toContain('WEATHER WIDGET: {"c":21}');
		expect(screen).not.toContain("sunny");
		expect(screen).toContain("[plain]");
		expect(screen).toContain("plain custom text");
		expect(screen.match(/WEATHER WIDGET/g)).toHaveLength(1);
	});

	it("a tool's own renderCall/renderResult replace the built-in rendering", async () => {
		harness = await InteractiveHarness.start({
			extension: (pi: ExtensionAPI) =>
				registerWeatherTool(pi, {
					renderCall: (args) => ({ render: () => [`FORECAST FOR ${args.city}`], invalidate: () => {} }),
					renderResult: (result, options) => ({
						render: () => [`TEMPERATURE ${result.details?.temperature} partial=${options.isPartial}`],
						invalidate: () => {},
					}),
				}),
		});
		harness.faux.setResponses([
			fauxAssistantMessage(fauxToolCall("weather", { city: "Oslo" }, { id: "w1" }), { stopReason: "toolUse" }),
			fauxAssistantMessage("done"),
		]);
		const since = harness.eventCount;
		harness.submit("weather?");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		const screen = await harness.screen();
		expect(screen).toContain("FORECAST FOR Oslo");
		expect(screen).toContain("TEMPERATURE 21 partial=false");
		expect(screen).not.toContain("raw Oslo data");
	});

	it("ctx.ui.setTheme applies to components created afterwards", async () => {
		harness = await InteractiveHarness.start({
			extension: (pi: ExtensionAPI) => {
				pi.registerCommand("retheme", {
					handler: async (_args, ctx) => {
						const values = {
							...Object.fromEntries(REQUIRED_THEME_TOKENS.map((token) => [token, ""])),
							userMessageBg: 21,
						};
						const result = ctx.ui.setTheme(
							new Theme(values as never, values as never, undefined, { name: "blue-prompts" }),
						);
						if (!result.success) throw new Error(result.error);
					},
				});
			},
		});
		harness.submit("/retheme");
		await harness.until(async () => (await harness!.screen()).includes('Theme "blue-prompts"'));
		harness.faux.setResponses([fauxAssistantMessage("ok")]);
		const since = harness.eventCount;
		harness.submit("after the theme change");
		await harness.waitForEvent((event) => event.type === "agent_settled", since);
		const lines = await harness.viewport();
		const row = lines.findIndex((line) => line.includes("after the theme change"));
		expect(harness.terminal.getCellStyle(row, 0).bg).toBe(21);
	});

	it("onTerminalInput listeners see raw input, survive a renderer switch, and can consume keys", async () => {
		const seen: string[] = [];
		harness = await InteractiveHarness.start({
			extension: (pi: ExtensionAPI) => {
				pi.on("session_start", (_event, ctx) => {
					ctx.ui.onTerminalInput((data) => {
						seen.push(data);
						return data === "z" ? { consume: true } : undefined;
					});
				});
			},
		});
		harness.type("az");
		expect(harness.mode.editor.getText()).toBe("a");
		harness.mode.editor.setText("");
		harness.submit("/settings");
		await harness.screen();
		harness.type("TUI mode");
		harness.terminal.press(KEYS.enter);
		await harness.screen();
		expect(harness.mode.tui.mode).toBe("fullscreen");
		harness.terminal.press(KEYS.escape);
		harness.mode.editor.setText("");
		harness.type("bz");
		expect(harness.mode.editor.getText()).toBe("b");
		expect(seen.filter((data) => data === "z")).toHaveLength(2);
	});

	it("setHeader and setFooter replace the built-in ones; undefined restores them", async () => {
		harness = await InteractiveHarness.start({
			extension: (pi: ExtensionAPI) => {
				pi.registerCommand("brand", {
					handler: async (args, ctx) => {
						if (args === "off") {
							ctx.ui.setHeader(undefined);
							ctx.ui.setFooter(undefined);
							return;
						}
						ctx.ui.setHeader(() => ({ render: () => ["CUSTOM HEADER"], invalidate: () => {} }));
						ctx.ui.setFooter((_tui, _theme, data) => ({
							render: () => [`CUSTOM FOOTER ${data.getExtensionStatuses().size}`],
							invalidate: () => {},
						}));
					},
				});
			},
		});
		harness.submit("/brand");
		await harness.until(async () => (await harness!.screen()).includes("CUSTOM FOOTER 0"));
		let screen = await harness.screen();
		expect(screen).toContain("CUSTOM HEADER");
		expect(screen).not.toContain("(auto)");
		harness.submit("/brand off");
		await harness.until(async () => (await harness!.screen()).includes("(auto)"));
		screen = (await harness.viewport()).join("\n");
		expect(screen).not.toContain("CUSTOM FOOTER");
		expect(screen).toContain("clear/exit");
	});
});
