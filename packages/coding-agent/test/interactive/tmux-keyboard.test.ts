import { describe, expect, it } from "vitest";
import { tmuxKeyboardWarning } from "../../src/modes/interactive/startup/tmux-keyboard.js";

describe("tmux keyboard check (docs/design/interactive.md#startup)", () => {
	const inTmux = { TMUX: "/tmp/tmux-1000/default,123,0" };

	it("warns inside tmux when extended-keys is off", async () => {
		const asked: string[][] = [];
		const warning = await tmuxKeyboardWarning(inTmux, async (args) => {
			asked.push(args);
			return "off\n";
		});
		expect(asked).toEqual([["show-options", "-gv", "extended-keys"]]);
		expect(warning).toContain("set -g extended-keys on");
	});

	it("stays quiet when extended-keys is on or always, outside tmux, or when tmux cannot answer", async () => {
		expect(await tmuxKeyboardWarning(inTmux, async () => "on\n")).toBeUndefined();
		expect(await tmuxKeyboardWarning(inTmux, async () => "always\n")).toBeUndefined();
		expect(await tmuxKeyboardWarning({}, async () => "off\n")).toBeUndefined();
		expect(
			await tmuxKeyboardWarning(inTmux, async () => {
				throw new Error("invalid option: extended-keys");
			}),
		).toBeUndefined();
	});
});
