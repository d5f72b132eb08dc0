import { describe, expect, it } from "vitest";
import { askProjectTrust } from "../../src/modes/interactive/trust-prompt.js";
import { KEYS, KeyTerminal } from "./harness.js";

async function shown(terminal: KeyTerminal): Promise<string> {
	await terminal.flush();
	return terminal.getViewport().join("\n");
}

describe("startup project-trust prompt (docs/design/resources.md#trust-decision-order)", () => {
	it("asks about the folder, lists the five options in order and answers the selected one", async () => {
		const terminal = new KeyTerminal(120, 20);
		const answer = askProjectTrust({ cwd: "/work/project", parent: "/work" }, terminal);
		const screen = await shown(terminal);
		expect(screen).toContain("Trust this project folder?");
		expect(screen).toContain("/work/project");
		expect(screen.replace(/\s+/g, " ")).toContain("install missing project packages and execute project extensions");
		const labels = [
			"Trust",
			"Trust parent folder (/work)",
			"Trust (this session only)",
			"Do not trust",
			"Do not trust (this session only)",
		];
		const rows = screen.split("\n");
		const positions = labels.map((label) => rows.findIndex((row) => row.trim().replace(/^→\s*/, "") === label));
		expect(positions.every((row) => row >= 0)).toBe(true);
		expect([...positions].sort((a, b) => a - b)).toEqual(positions);
		terminal.press(KEYS.down);
		terminal.press(KEYS.down);
		terminal.press(KEYS.enter);
		expect(await answer).toBe("trust-session");
	});

	it("leaves out the parent option at the filesystem root; Escape cancels", async () => {
		const terminal = new KeyTerminal(100, 20);
		const answer = askProjectTrust({ cwd: "/", parent: undefined }, terminal);
		const screen = await shown(terminal);
		expect(screen).not.toContain("Trust parent folder");
		expect(screen).toContain("Do not trust (this session only)");
		terminal.press(KEYS.escape);
		expect(await answer).toBe("cancel");
	});
});
