import { fauxAssistantMessage } from "@tau/ai";
import { type ExtensionAPI, type ExtensionContext, Theme } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { createHarness } from "../agent-session/harness.js";

/** Print, JSON and SDK sessions have no UI, yet `ctx.ui.theme` styles text like the TUI does (docs/extensions.md). */
describe("ctx.ui.theme without a UI", () => {
	it("is the built-in Theme, with Pi's styling methods", async () => {
		const seen: { theme?: Theme; styled?: string[]; hasUI?: boolean } = {};
		const h = await createHarness({
			loader: {
				extensionFactories: [
					(pi: ExtensionAPI) =>
						pi.on("agent_start", (_event, ctx: ExtensionContext) => {
							const theme = ctx.ui.theme;
							seen.theme = theme;
							seen.hasUI = ctx.hasUI;
							seen.styled = [
								theme.fg("accent", "a"),
								theme.bg("toolErrorBg", "b"),
								theme.italic("c"),
								theme.underline("d"),
								theme.inverse("e"),
								theme.getThinkingBorderColor("high")("f"),
							];
						}),
				],
			},
		});
		await h.session.bindExtensions({});
		h.faux.setResponses([fauxAssistantMessage("ok")]);
		await h.session.prompt("hi");
		expect(seen.hasUI).toBe(false);
		expect(seen.theme).toBeInstanceOf(Theme);
		expect(seen.theme?.name).toBe("tau");
		expect(seen.styled?.slice(2, 5)).toEqual(["\x1b[3mc\x1b[23m", "\x1b[4md\x1b[24m", "\x1b[7me\x1b[27m"]);
		expect(seen.styled?.[0]).toMatch(/^\x1b\[38;[25];[\d;]+ma\x1b\[39m$/);
		expect(seen.styled?.[1]).toMatch(/^\x1b\[48;[25];[\d;]+mb\x1b\[49m$/);
		expect(seen.styled?.[5]).toBe(seen.theme?.fg("thinkingHigh", "f"));
	});

	it("rejects a token in the wrong slot or an unknown token, as Pi does", async () => {
		const h = await createHarness({ loader: { extensionFactories: [() => {}] } });
		await h.session.bindExtensions({});
		const theme = h.session.extensionRunner.createContext().ui.theme;
		expect(() => theme.fg("selectedBg" as never, "x")).toThrow("Unknown theme color: selectedBg");
		expect(() => theme.bg("accent" as never, "x")).toThrow("Unknown theme color: accent");
	});
});
