import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runConfigCommand } from "../../src/cli/config-command/config-command.js";
import { KEYS, KeyTerminal } from "../interactive/harness.js";
import { resourceDirs, skillFile, write, writeJson } from "../resources/helpers.js";

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

function capture() {
	const out = { stdout: "", stderr: "" };
	const io = { stdout: (text: string) => (out.stdout += text), stderr: (text: string) => (out.stderr += text) };
	return { out, io };
}

/** A user skill, a project skill and a project settings file (so the project needs a trust decision). */
function layout() {
	const dirs = resourceDirs();
	skillFile(join(dirs.agentDir, "skills"), "alpha");
	skillFile(join(dirs.cwd, ".tau", "skills"), "delta");
	writeJson(join(dirs.cwd, ".tau", "settings.json"), {});
	return { ...dirs, homeDir: dirs.home };
}

/** A key terminal that tells when the list has started drawing on it. */
class ListTerminal extends KeyTerminal {
	private markShown!: () => void;
	readonly shown = new Promise<void>((resolve) => {
		this.markShown = resolve;
	});

	override start(onInput: (data: string) => void, onResize: () => void): void {
		super.start(onInput, onResize);
		this.markShown();
	}
}

async function screenOf(terminal: KeyTerminal): Promise<string> {
	await terminal.flush();
	return terminal.getViewport().join("\n");
}

describe("tau config: arguments (docs/design/resources.md#commands)", () => {
	it("-h prints the usage", async () => {
		const { out, io } = capture();
		expect(await runConfigCommand(["-h"], io, layout())).toBe(0);
		expect(out.stdout).toMatch(/^Usage: tau config \[-l\|--local\] \[-a\|--approve\] \[-na\|--no-approve\]\n/);
	});

	it("an unknown option or a positional argument is an error with the usage line", async () => {
		const unknown = capture();
		expect(await runConfigCommand(["--frobnicate"], unknown.io, layout())).toBe(1);
		expect(unknown.out.stderr).toBe(
			'Unknown option --frobnicate for "config".\nUsage: tau config [-l|--local] [-a|--approve] [-na|--no-approve]\n',
		);
		const extra = capture();
		expect(await runConfigCommand(["skills"], extra.io, layout())).toBe(1);
		expect(extra.out.stderr).toMatch(/^Unexpected argument skills\.\n/);
	});

	it("-l in an untrusted project fails before anything is shown or written", async () => {
		const dirs = layout();
		const terminal = new ListTerminal(100, 30);
		const { out, io } = capture();
		expect(await runConfigCommand(["-l", "-na"], io, { ...dirs, terminal })).toBe(1);
		expect(out.stderr).toBe("Error: Project is not trusted. Use --approve to modify local resource config.\n");
		expect(terminal.started).toBe(false);
		expect(readJson(join(dirs.cwd, ".tau", "settings.json"))).toEqual({});
	});
});

describe("tau config: the list on a terminal", () => {
	it("toggles a user resource, switches to the project scope, toggles there, and writes both files", async () => {
		const dirs = layout();
		const terminal = new ListTerminal(120, 30);
		const { out, io } = capture();
		const done = runConfigCommand(["--approve"], io, { ...dirs, terminal });
		await terminal.shown;
		let screen = await screenOf(terminal);
		expect(screen).toContain("Resources · User scope");
		expect(screen).toContain(join(dirs.agentDir, "settings.json"));
		expect(screen).toContain("Skills");
		expect(screen).toContain("[x] ~/.tau/agent/skills/alpha/SKILL.md");
		expect(screen).toContain("Built-in");
		expect(screen).toContain("[x] mcp");
		expect(screen).not.toContain("delta");
		expect(screen).toContain("Tab user/project scope");

		terminal.press(" ");
		screen = await screenOf(terminal);
		expect(screen).toContain("[ ] ~/.tau/agent/skills/alpha/SKILL.md");

		terminal.press("\t");
		screen = await screenOf(terminal);
		expect(screen).toContain("Resources · Project scope");
		expect(screen).toMatch(/\[x\] \.tau\/skills\/delta\/SKILL\.md \(project\)\s+inherit/);
		// The user disabled alpha; the project inherits that.
		expect(screen).toMatch(/\[ \] ~\/\.tau\/agent\/skills\/alpha\/SKILL\.md \(user\)\s+inherit/);
		terminal.press(KEYS.enter);
		terminal.press(KEYS.enter);
		screen = await screenOf(terminal);
		expect(screen).toMatch(/\[ \] \.tau\/skills\/delta\/SKILL\.md \(project\)\s+unload/);
		// A user file loaded by a project override still says where it comes from.
		terminal.press(KEYS.down);
		terminal.press(" ");
		screen = await screenOf(terminal);
		expect(screen).toMatch(/\[x\] ~\/\.tau\/agent\/skills\/alpha\/SKILL\.md \(user\)\s+load/);
		terminal.press(" ");
		terminal.press(" ");

		terminal.press(KEYS.escape);
		expect(await done).toBe(0);
		expect(out.stderr).toBe("");
		expect(terminal.started).toBe(false);
		expect(readJson(join(dirs.agentDir, "settings.json"))).toEqual({ skills: ["-skills/alpha/SKILL.md"] });
		expect(readJson(join(dirs.cwd, ".tau", "settings.json"))).toEqual({ skills: ["-skills/delta/SKILL.md"] });
	});

	it("-l starts in the project scope; q leaves without writing anything", async () => {
		const dirs = layout();
		const terminal = new ListTerminal(120, 30);
		const { io } = capture();
		const done = runConfigCommand(["-l", "-a"], io, { ...dirs, terminal });
		await terminal.shown;
		expect(await screenOf(terminal)).toContain("Resources · Project scope");
		terminal.press("q");
		expect(await done).toBe(0);
		expect(existsSync(join(dirs.agentDir, "settings.json"))).toBe(false);
		expect(readJson(join(dirs.cwd, ".tau", "settings.json"))).toEqual({});
	});

	it("an untrusted project keeps Tab in the user scope and says why", async () => {
		const dirs = layout();
		const terminal = new ListTerminal(120, 30);
		const { io } = capture();
		const done = runConfigCommand(["-na"], io, { ...dirs, terminal });
		await terminal.shown;
		terminal.press("\t");
		const screen = await screenOf(terminal);
		expect(screen).toContain("Resources · User scope");
		expect(screen).toContain("The project is not trusted: only the user scope can be changed.");
		terminal.press(KEYS.escape);
		expect(await done).toBe(0);
	});

	it("scrolls a long list so the selected item stays on screen", async () => {
		const dirs = resourceDirs();
		for (let i = 0; i < 10; i++) write(join(dirs.agentDir, "prompts", `p${i}.md`), `Prompt ${i}\n`);
		const terminal = new ListTerminal(100, 12);
		const { io } = capture();
		const done = runConfigCommand([], io, { ...dirs, homeDir: dirs.home, terminal });
		await terminal.shown;
		expect(await screenOf(terminal)).toContain("❯ [x] ~/.tau/agent/prompts/p0.md");
		terminal.press("\x1b[A");
		const screen = await screenOf(terminal);
		expect(screen).toContain("❯ [x] mcp");
		expect(screen).not.toContain("p0.md");
		terminal.press(KEYS.escape);
		expect(await done).toBe(0);
	});

	it("prints a settings file that does not parse as a warning and still opens", async () => {
		const dirs = layout();
		writeFileSync(join(dirs.agentDir, "settings.json"), "{ not json");
		const terminal = new ListTerminal(100, 30);
		const { out, io } = capture();
		const done = runConfigCommand(["-a"], io, { ...dirs, terminal });
		await terminal.shown;
		expect(out.stderr).toMatch(/^Warning \(config, global settings\): /);
		terminal.press(KEYS.escape);
		expect(await done).toBe(0);
		expect(readFileSync(join(dirs.agentDir, "settings.json"), "utf8")).toBe("{ not json");
	});
});
