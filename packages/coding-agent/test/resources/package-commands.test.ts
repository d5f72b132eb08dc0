import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SettingsManager } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import {
	installAndPersist,
	listPackages,
	normalizePackageSourceForSettings,
	type PackageCommandContext,
	removePackage,
} from "../../src/core/resources/index.js";
import { fakeNpm, resourceDirs, write, writeJson } from "./helpers.js";

function setup(projectTrusted = true) {
	const dirs = resourceDirs();
	const npm = fakeNpm(join(dirs.root, "bin"), { "tool-a": "1.0.0", "@acme/tools": "2.0.0" });
	const settings = SettingsManager.create(dirs.cwd, dirs.agentDir, { projectTrusted });
	const context: PackageCommandContext = {
		cwd: dirs.cwd,
		agentDir: dirs.agentDir,
		settings,
		npmCommand: npm.npmCommand,
	};
	const userFile = () => JSON.parse(readFileSync(join(dirs.agentDir, "settings.json"), "utf8"));
	const projectFile = () => JSON.parse(readFileSync(join(dirs.cwd, ".tau", "settings.json"), "utf8"));
	return { ...dirs, calls: npm.calls, settings, context, userFile, projectFile };
}

describe("tau install", () => {
	it("installs an npm package and records it once; a second spec of the same package replaces the source", async () => {
		const { agentDir, settings, context, calls, userFile } = setup();
		expect(await installAndPersist("npm:tool-a", {}, context)).toBe("Installed npm:tool-a");
		expect(existsSync(join(agentDir, "npm", "node_modules", "tool-a", "package.json"))).toBe(true);
		expect(userFile().packages).toEqual(["npm:tool-a"]);
		await installAndPersist("npm:tool-a", {}, context);
		expect(userFile().packages).toEqual(["npm:tool-a"]);
		expect(calls().filter((args) => args[0] === "install")).toHaveLength(1);

		writeJson(join(agentDir, "settings.json"), { packages: [{ source: "npm:tool-a", skills: [] }] });
		await settings.reload();
		await installAndPersist("npm:tool-a@1.0.0", {}, context);
		expect(userFile().packages).toEqual([{ source: "npm:tool-a@1.0.0", skills: [] }]);
	});

	it("stores local sources relative to the scope's base dir and refuses missing paths", async () => {
		const { root, cwd, context, projectFile } = setup();
		write(join(cwd, ".tau", "vendor", "pkg", "index.ts"), "");
		await installAndPersist(join(cwd, ".tau", "vendor", "pkg"), { local: true }, context);
		expect(projectFile().packages).toEqual([join("vendor", "pkg")]);
		await expect(installAndPersist(join(root, "nowhere"), {}, context)).rejects.toThrow(
			`Path does not exist: ${join(root, "nowhere")}`,
		);
		expect(normalizePackageSourceForSettings(join(cwd, ".tau"), join(cwd, ".tau"), cwd)).toBe(".");
	});

	it("refuses project scope in an untrusted project and fails on a package the registry lacks", async () => {
		const { context, calls } = setup(false);
		await expect(installAndPersist("npm:tool-a", { local: true }, context)).rejects.toThrow(
			"Project is not trusted. Use --approve to modify local package config.",
		);
		expect(calls()).toEqual([]);
		await expect(installAndPersist("npm:missing-tool", {}, context)).rejects.toThrow("404 Not Found: missing-tool");
	});
});

describe("tau remove and tau list", () => {
	it("uninstalls and drops every entry of the package; an unknown source is an error", async () => {
		const { agentDir, context, calls, userFile } = setup();
		await installAndPersist("npm:tool-a", {}, context);
		expect(await removePackage("npm:tool-a@1.0.0", {}, context)).toBe("Removed npm:tool-a@1.0.0");
		expect(userFile().packages).toEqual([]);
		expect(calls().at(-1)).toEqual(["uninstall", "tool-a", "--prefix", join(agentDir, "npm")]);
		await expect(removePackage("npm:tool-a", {}, context)).rejects.toThrow(
			"No matching package found for npm:tool-a",
		);
	});

	it("lists user and project packages with their paths, marking filtered entries", async () => {
		const { agentDir, cwd, settings, context } = setup();
		expect(listPackages(context)).toEqual(["No packages installed."]);
		writeJson(join(agentDir, "settings.json"), {
			packages: ["npm:tool-a", { source: "npm:@acme/tools", skills: [] }],
		});
		writeJson(join(cwd, ".tau", "settings.json"), { packages: ["./vendor/pkg"] });
		await settings.reload();
		expect(listPackages(context)).toEqual([
			"User packages:",
			"  npm:tool-a",
			`    ${join(agentDir, "npm", "node_modules", "tool-a")}`,
			"  npm:@acme/tools (filtered)",
			`    ${join(agentDir, "npm", "node_modules", "@acme", "tools")}`,
			"",
			"Project packages:",
			"  ./vendor/pkg",
			`    ${join(cwd, ".tau", "vendor", "pkg")}`,
		]);
	});
});
