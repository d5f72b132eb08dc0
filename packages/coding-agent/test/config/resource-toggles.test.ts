import { describe, expect, it } from "vitest";
import {
	nextProjectState,
	overrideState,
	projectPackageState,
	withPackageOverride,
	withProjectPackageState,
	withProjectTopLevelState,
	withTopLevelOverride,
} from "../../src/config/resource-toggles/index.js";

describe("tau config write rules: global scope, top-level resources (docs/design/resources.md#config-write-rules)", () => {
	it("appends -pattern to disable and +pattern to enable, replacing every override of that pattern", () => {
		const start = ["skills", "!skills/old/**", "+skills/a/SKILL.md", "-prompts/x.md"];
		const disabled = withTopLevelOverride(start, "skills/a/SKILL.md", false);
		expect(disabled).toEqual(["skills", "!skills/old/**", "-prompts/x.md", "-skills/a/SKILL.md"]);
		const enabled = withTopLevelOverride(disabled, "skills/a/SKILL.md", true);
		expect(enabled).toEqual(["skills", "!skills/old/**", "-prompts/x.md", "+skills/a/SKILL.md"]);
	});

	it("treats ./pattern and !pattern entries as naming the same target", () => {
		expect(withTopLevelOverride(["-./ext/a.ts", "!ext/a.ts", "ext/b.ts"], "ext/a.ts", true)).toEqual([
			"ext/b.ts",
			"+ext/a.ts",
		]);
	});

	it("keeps a plain entry equal to the pattern, since it is what collects the file", () => {
		expect(withTopLevelOverride(["prompts/x.md"], "prompts/x.md", false)).toEqual(["prompts/x.md", "-prompts/x.md"]);
	});

	it("names built-ins by their builtin: path", () => {
		expect(withTopLevelOverride(["+builtin:mcp"], "builtin:mcp", false)).toEqual(["-builtin:mcp"]);
	});
});

describe("tau config write rules: project scope, top-level resources", () => {
	it("cycles inherit → load → unload → inherit", () => {
		expect(nextProjectState("inherit")).toBe("load");
		expect(nextProjectState("load")).toBe("unload");
		expect(nextProjectState("unload")).toBe("inherit");
	});

	it("reads the state from the last +/- entry naming the pattern", () => {
		expect(overrideState(["skills/a"], "skills/a")).toBe("inherit");
		expect(overrideState(["+skills/a", "-./skills/a"], "skills/a")).toBe("unload");
		expect(overrideState(["-skills/a", "+skills/a", "-skills/b"], "skills/a")).toBe("load");
		expect(overrideState(["!skills/a"], "skills/a")).toBe("inherit");
	});

	it("writes +/- for a project item and removes it again on inherit", () => {
		const loaded = withProjectTopLevelState(["extensions/x.ts"], "extensions/a.ts", "load");
		expect(loaded).toEqual(["extensions/x.ts", "+extensions/a.ts"]);
		const unloaded = withProjectTopLevelState(loaded, "extensions/a.ts", "unload");
		expect(unloaded).toEqual(["extensions/x.ts", "-extensions/a.ts"]);
		expect(withProjectTopLevelState(unloaded, "extensions/a.ts", "inherit")).toEqual(["extensions/x.ts"]);
	});

	it("adds an inherited user item's absolute path as a plain entry once, and drops it on inherit", () => {
		const file = "/home/u/.tau/agent/skills/a/SKILL.md";
		const loaded = withProjectTopLevelState([], file, "load", file);
		expect(loaded).toEqual([file, `+${file}`]);
		const unloaded = withProjectTopLevelState(loaded, file, "unload", file);
		expect(unloaded).toEqual([file, `-${file}`]);
		expect(withProjectTopLevelState(unloaded, file, "inherit", file)).toEqual([]);
	});

	it("needs no plain entry for a built-in", () => {
		expect(withProjectTopLevelState([], "builtin:codemode", "unload")).toEqual(["-builtin:codemode"]);
		expect(withProjectTopLevelState(["-builtin:codemode"], "builtin:codemode", "inherit")).toEqual([]);
	});
});

describe("tau config write rules: global scope, package resources", () => {
	it("turns a string entry into an object with a per-type filter, leaving other entries alone", () => {
		const packages = ["npm:other", "npm:pkg"];
		const disabled = withPackageOverride(packages, 1, "skills", "skills/a/SKILL.md", false);
		expect(disabled).toEqual(["npm:other", { source: "npm:pkg", skills: ["-skills/a/SKILL.md"] }]);
		expect(withPackageOverride(disabled, 1, "skills", "skills/a/SKILL.md", true)).toEqual([
			"npm:other",
			{ source: "npm:pkg", skills: ["+skills/a/SKILL.md"] },
		]);
		expect(packages).toEqual(["npm:other", "npm:pkg"]);
	});

	it("keeps plain includes and other types' filters, replacing only overrides of the pattern", () => {
		const entry = { source: "../pkg", skills: ["skills/a", "+skills/b/SKILL.md"], prompts: ["-prompts/p.md"] };
		expect(withPackageOverride([entry], 0, "skills", "skills/b/SKILL.md", false)).toEqual([
			{ source: "../pkg", skills: ["skills/a", "-skills/b/SKILL.md"], prompts: ["-prompts/p.md"] },
		]);
	});

	it("keeps an explicit [] meaning none when one resource of it is enabled", () => {
		const updated = withPackageOverride([{ source: "npm:pkg", themes: [] }], 0, "themes", "themes/dark.json", true);
		expect(updated).toEqual([{ source: "npm:pkg", themes: ["!**", "+themes/dark.json"] }]);
	});
});

describe("tau config write rules: project scope, package resources", () => {
	it("creates an autoload:false delta for a package configured only for the user", () => {
		const created = withProjectPackageState(["npm:x"], -1, "../../pkg", "prompts", "prompts/p.md", "unload");
		expect(created).toEqual(["npm:x", { source: "../../pkg", autoload: false, prompts: ["-prompts/p.md"] }]);
		expect(withProjectPackageState(["npm:x"], -1, "../../pkg", "prompts", "prompts/p.md", "inherit")).toEqual([
			"npm:x",
		]);
	});

	it("cycles a delta entry and removes it once no filter is left", () => {
		const delta = { source: "npm:pkg", autoload: false, skills: ["-skills/a/SKILL.md"] };
		expect(projectPackageState(delta, "skills", "skills/a/SKILL.md")).toBe("unload");
		expect(withProjectPackageState([delta], 0, "npm:pkg", "skills", "skills/a/SKILL.md", "inherit")).toEqual([]);
		const twoTypes = { ...delta, prompts: ["+prompts/p.md"] };
		expect(withProjectPackageState([twoTypes], 0, "npm:pkg", "skills", "skills/a/SKILL.md", "inherit")).toEqual([
			{ source: "npm:pkg", autoload: false, prompts: ["+prompts/p.md"] },
		]);
	});

	it("writes into a project package entry and collapses it back to a string on inherit", () => {
		const loaded = withProjectPackageState(["npm:pkg"], 0, "npm:pkg", "extensions", "extensions/a.ts", "load");
		expect(loaded).toEqual([{ source: "npm:pkg", extensions: ["+extensions/a.ts"] }]);
		expect(projectPackageState(loaded[0], "extensions", "extensions/a.ts")).toBe("load");
		expect(withProjectPackageState(loaded, 0, "npm:pkg", "extensions", "extensions/a.ts", "inherit")).toEqual([
			"npm:pkg",
		]);
	});

	it("reports inherit for a string entry or no entry", () => {
		expect(projectPackageState("npm:pkg", "skills", "skills/a")).toBe("inherit");
		expect(projectPackageState(undefined, "skills", "skills/a")).toBe("inherit");
	});
});
