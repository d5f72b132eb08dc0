import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { SettingsManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { type ConfigScope, ResourceConfig } from "../../src/cli/config-command/resource-config.js";
import { resourceDirs, skillFile, write, writeJson } from "../resources/helpers.js";

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

/** A user with auto-discovered resources and a local package, and a trusted project with its own skill. */
function layout() {
	const { root, home, agentDir, cwd } = resourceDirs();
	const pkg = join(root, "pkg");
	writeJson(join(pkg, "package.json"), { name: "pkg", version: "1.0.0" });
	const files = {
		alpha: skillFile(join(agentDir, "skills"), "alpha"),
		hello: write(join(agentDir, "prompts", "hello.md"), "Hello\n"),
		beta: skillFile(join(pkg, "skills"), "beta"),
		gamma: skillFile(join(pkg, "skills"), "gamma"),
		delta: skillFile(join(cwd, ".tau", "skills"), "delta"),
	};
	writeJson(join(agentDir, "settings.json"), { packages: [pkg] });
	writeJson(join(cwd, ".tau", "settings.json"), {});
	return { home, agentDir, cwd, pkg, files };
}

function configFor(dirs: { home: string; agentDir: string; cwd: string }, trusted = true) {
	const settings = SettingsManager.create(dirs.cwd, dirs.agentDir, { projectTrusted: trusted });
	const config = new ResourceConfig({
		cwd: dirs.cwd,
		agentDir: dirs.agentDir,
		homeDir: dirs.home,
		settings,
		builtinExtensionNames: ["mcp", "codemode"],
	});
	/** Toggles the item at `path` in `scope` and returns the scope's items afterwards. */
	const toggle = (scope: ConfigScope, path: string) => {
		const item = config.items(scope).items.find((candidate) => candidate.path === path);
		if (!item) throw new Error(`not listed in ${scope}: ${path}`);
		config.toggle(scope, item);
		return config.items(scope).items;
	};
	const stateOf = (scope: ConfigScope, path: string) => {
		const item = config.items(scope).items.find((candidate) => candidate.path === path);
		return item && { enabled: item.enabled, projectState: item.projectState };
	};
	return { config, toggle, stateOf };
}

describe("tau config: what each scope lists", () => {
	it("the user scope lists user resources, package resources and built-ins; the project scope adds project ones", () => {
		const dirs = layout();
		const { config } = configFor(dirs);
		const user = config.items("user").items.map((item) => item.path);
		const { files } = dirs;
		expect(user).toEqual(
			expect.arrayContaining([files.alpha, files.hello, files.beta, files.gamma, "builtin:mcp", "builtin:codemode"]),
		);
		expect(user).not.toContain(files.delta);
		const project = config.items("project").items;
		expect(project.map((item) => item.path)).toContain(files.delta);
		expect(project.every((item) => item.projectState === "inherit")).toBe(true);
	});

	it("lists disabled resources too", () => {
		const dirs = layout();
		writeJson(join(dirs.agentDir, "settings.json"), { packages: [{ source: dirs.pkg, skills: [] }] });
		const { stateOf } = configFor(dirs);
		expect(stateOf("user", dirs.files.beta)).toEqual({ enabled: false, projectState: undefined });
	});
});

describe("tau config: user scope toggles (docs/design/resources.md#config-write-rules, global scope)", () => {
	it("disables and re-enables a top-level resource with -/+ entries relative to its base dir, on disk", async () => {
		const dirs = layout();
		const { config, toggle, stateOf } = configFor(dirs);
		toggle("user", dirs.files.alpha);
		expect(stateOf("user", dirs.files.alpha)?.enabled).toBe(false);
		await config.flush();
		const settingsFile = join(dirs.agentDir, "settings.json");
		expect(readJson(settingsFile)).toEqual({ packages: [dirs.pkg], skills: ["-skills/alpha/SKILL.md"] });
		toggle("user", dirs.files.alpha);
		await config.flush();
		expect(stateOf("user", dirs.files.alpha)?.enabled).toBe(true);
		expect(readJson(settingsFile)).toMatchObject({ skills: ["+skills/alpha/SKILL.md"] });
	});

	it("filters one package resource through an object entry and collapses it back to a string", async () => {
		const dirs = layout();
		const { config, toggle, stateOf } = configFor(dirs);
		toggle("user", dirs.files.beta);
		expect(stateOf("user", dirs.files.beta)?.enabled).toBe(false);
		expect(stateOf("user", dirs.files.gamma)?.enabled).toBe(true);
		await config.flush();
		expect(readJson(join(dirs.agentDir, "settings.json"))).toEqual({
			packages: [{ source: dirs.pkg, skills: ["-skills/beta/SKILL.md"] }],
		});
		toggle("user", dirs.files.beta);
		expect(stateOf("user", dirs.files.beta)?.enabled).toBe(true);
	});

	it("enabling one resource of an explicit [] filter leaves the others off", () => {
		const dirs = layout();
		writeJson(join(dirs.agentDir, "settings.json"), { packages: [{ source: dirs.pkg, skills: [] }] });
		const { toggle, stateOf } = configFor(dirs);
		toggle("user", dirs.files.beta);
		expect(stateOf("user", dirs.files.beta)?.enabled).toBe(true);
		expect(stateOf("user", dirs.files.gamma)?.enabled).toBe(false);
	});

	it("a file named by a plain settings entry stays listed when disabled", () => {
		const dirs = layout();
		const extra = write(join(dirs.agentDir, "extra", "x.md"), "X\n");
		writeJson(join(dirs.agentDir, "settings.json"), { prompts: ["extra/x.md"] });
		const { toggle, stateOf } = configFor(dirs);
		toggle("user", extra);
		expect(stateOf("user", extra)).toEqual({ enabled: false, projectState: undefined });
		toggle("user", extra);
		expect(stateOf("user", extra)?.enabled).toBe(true);
	});

	it("disables a built-in with -builtin:<name>", async () => {
		const dirs = layout();
		const { config, toggle, stateOf } = configFor(dirs);
		toggle("user", "builtin:mcp");
		expect(stateOf("user", "builtin:mcp")?.enabled).toBe(false);
		expect(stateOf("user", "builtin:codemode")?.enabled).toBe(true);
		await config.flush();
		expect(readJson(join(dirs.agentDir, "settings.json"))).toMatchObject({ extensions: ["-builtin:mcp"] });
	});
});

describe("tau config: project scope toggles (inherit / load / unload)", () => {
	it("overrides an inherited user resource through a plain absolute entry, user settings untouched", async () => {
		const dirs = layout();
		const { config, toggle, stateOf } = configFor(dirs);
		const alpha = dirs.files.alpha;
		const projectFile = join(dirs.cwd, ".tau", "settings.json");
		toggle("project", alpha);
		expect(stateOf("project", alpha)).toEqual({ enabled: true, projectState: "load" });
		toggle("project", alpha);
		expect(stateOf("project", alpha)).toEqual({ enabled: false, projectState: "unload" });
		await config.flush();
		expect(readJson(projectFile)).toEqual({ skills: [alpha, `-${alpha}`] });
		expect(stateOf("user", alpha)?.enabled).toBe(true);
		toggle("project", alpha);
		await config.flush();
		expect(stateOf("project", alpha)).toEqual({ enabled: true, projectState: "inherit" });
		expect(readJson(projectFile)).toEqual({ skills: [] });
		expect(readJson(join(dirs.agentDir, "settings.json"))).toEqual({ packages: [dirs.pkg] });
	});

	it("adjusts a user package through an autoload:false delta relative to .tau, removed on inherit", async () => {
		const dirs = layout();
		const { config, toggle, stateOf } = configFor(dirs);
		const { beta, gamma } = dirs.files;
		const projectFile = join(dirs.cwd, ".tau", "settings.json");
		toggle("project", beta);
		toggle("project", beta);
		expect(stateOf("project", beta)).toEqual({ enabled: false, projectState: "unload" });
		expect(stateOf("project", gamma)).toEqual({ enabled: true, projectState: "inherit" });
		expect(stateOf("user", beta)?.enabled).toBe(true);
		await config.flush();
		const source = relative(join(dirs.cwd, ".tau"), dirs.pkg);
		expect(readJson(projectFile)).toEqual({
			packages: [{ source, autoload: false, skills: ["-skills/beta/SKILL.md"] }],
		});
		toggle("project", beta);
		await config.flush();
		expect(readJson(projectFile)).toEqual({ packages: [] });
		expect(stateOf("project", beta)).toEqual({ enabled: true, projectState: "inherit" });
	});

	it("unloads a project resource relative to its base dir and re-enables a built-in the user disabled", async () => {
		const dirs = layout();
		writeJson(join(dirs.agentDir, "settings.json"), { extensions: ["-builtin:mcp"] });
		const { config, toggle, stateOf } = configFor(dirs);
		toggle("project", dirs.files.delta);
		toggle("project", dirs.files.delta);
		expect(stateOf("project", dirs.files.delta)).toEqual({ enabled: false, projectState: "unload" });
		expect(stateOf("project", "builtin:mcp")).toEqual({ enabled: false, projectState: "inherit" });
		toggle("project", "builtin:mcp");
		expect(stateOf("project", "builtin:mcp")).toEqual({ enabled: true, projectState: "load" });
		await config.flush();
		expect(readJson(join(dirs.cwd, ".tau", "settings.json"))).toEqual({
			skills: ["-skills/delta/SKILL.md"],
			extensions: ["+builtin:mcp"],
		});
	});

	it("leaves a package that is itself the extension untouched: no filter can name it", async () => {
		const dirs = layout();
		const bare = join(dirs.pkg, "..", "bare-ext");
		write(join(bare, "index.ts"), "export default () => {};\n");
		writeJson(join(dirs.agentDir, "settings.json"), { packages: [bare] });
		const { config } = configFor(dirs);
		const item = config.items("user").items.find((candidate) => candidate.path === bare);
		expect(item).toMatchObject({ toggleable: false, enabled: true });
		config.toggle("user", item!);
		await config.flush();
		expect(readJson(join(dirs.agentDir, "settings.json"))).toEqual({ packages: [bare] });
	});
});
