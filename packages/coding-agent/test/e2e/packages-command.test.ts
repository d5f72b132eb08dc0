import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fakeNpm } from "../resources/helpers.js";
import { cliBuilt, mockServer, runCli, type Sandbox, sandbox, writeMockModels } from "./harness.js";

/** A local package with one extension, next to the project. */
function localPackage(box: Sandbox): string {
	const dir = join(box.home, "my-package");
	mkdirSync(join(dir, "extensions"), { recursive: true });
	writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "my-package", version: "1.0.0" }));
	writeFileSync(join(dir, "extensions", "hello.js"), "module.exports = function () {};\n");
	return dir;
}

const settingsOf = (path: string) => JSON.parse(readFileSync(path, "utf8")) as { packages?: unknown[] };

describe.skipIf(!cliBuilt)("package subcommands (built CLI)", () => {
	it("install records a local package in the user settings; list shows it; remove drops it", async () => {
		const box = sandbox();
		localPackage(box);
		const installed = await runCli(box, ["install", "../my-package"]);
		expect(installed).toMatchObject({ code: 0, stdout: "Installed ../my-package\n" });
		// A local source outside the settings file's base dir (the agent dir) is stored as an absolute path.
		expect(settingsOf(join(box.agentDir, "settings.json")).packages).toEqual([join(box.home, "my-package")]);

		const list = await runCli(box, ["list"]);
		expect(list.code).toBe(0);
		expect(list.stdout).toContain("User packages:");
		expect(list.stdout).toContain(`  ${join(box.home, "my-package")}\n`);

		const removed = await runCli(box, ["uninstall", "../my-package"]);
		expect(removed).toMatchObject({ code: 0, stdout: "Removed ../my-package\n" });
		expect(settingsOf(join(box.agentDir, "settings.json")).packages).toEqual([]);
		expect((await runCli(box, ["list"])).stdout).toBe("No packages installed.\n");
	});

	it("a project install (-l) needs trust: refused in an untrusted project, written with --approve", async () => {
		const box = sandbox();
		localPackage(box);
		mkdirSync(join(box.project, ".tau"), { recursive: true });
		writeFileSync(join(box.project, ".tau", "settings.json"), "{}\n");
		const refused = await runCli(box, ["install", "-l", "../my-package"]);
		expect(refused.code).toBe(1);
		expect(refused.stderr).toBe("Error: Project is not trusted. Use --approve to modify local package config.\n");
		expect(settingsOf(join(box.project, ".tau", "settings.json")).packages).toBeUndefined();

		const approved = await runCli(box, ["install", "-l", "-a", "../my-package"]);
		expect(approved.code).toBe(0);
		expect(settingsOf(join(box.project, ".tau", "settings.json")).packages).toEqual([join(box.home, "my-package")]);
	});

	it("bad input is an error with the usage line; nothing is written", async () => {
		const box = sandbox();
		const unknown = await runCli(box, ["install", "--frobnicate", "x"]);
		expect(unknown.code).toBe(1);
		expect(unknown.stderr).toBe(
			'Unknown option --frobnicate for "install".\nUsage: tau install <source> [-l|--local] [-a|--approve] [-na|--no-approve]\n',
		);
		const missing = await runCli(box, ["remove"]);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toMatch(/^Usage: tau remove <source>/);
		const noPath = await runCli(box, ["install", "./does-not-exist"]);
		expect(noPath.code).toBe(1);
		expect(noPath.stderr).toContain("Error: Path does not exist:");
		const notConfigured = await runCli(box, ["remove", "npm:left-pad"]);
		expect(notConfigured).toMatchObject({ code: 1, stderr: "Error: No matching package found for npm:left-pad\n" });
	});

	it("install of an npm package runs the configured npm into the user root and records it", async () => {
		const box = sandbox();
		const npm = fakeNpm(join(box.home, "bin"), { "fake-pkg": "1.2.3" });
		writeFileSync(join(box.agentDir, "settings.json"), JSON.stringify({ npmCommand: npm.npmCommand }));
		const online = { env: { TAU_OFFLINE: "" } };
		const installed = await runCli(box, ["install", "npm:fake-pkg"], online);
		expect(installed).toMatchObject({ code: 0, stdout: "Installed npm:fake-pkg\n" });
		expect(settingsOf(join(box.agentDir, "settings.json")).packages).toEqual(["npm:fake-pkg"]);
		expect(npm.calls()[0]).toEqual(expect.arrayContaining(["install", "fake-pkg", "--prefix"]));
		const manifest = join(box.agentDir, "npm", "node_modules", "fake-pkg", "package.json");
		expect(JSON.parse(readFileSync(manifest, "utf8"))).toMatchObject({ version: "1.2.3" });

		const missing = await runCli(box, ["install", "npm:not-in-registry"], online);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain("Error:");
		expect(settingsOf(join(box.agentDir, "settings.json")).packages).toEqual(["npm:fake-pkg"]);
	});

	it("a configured package missing at startup is installed first, announced on stderr only", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const npm = fakeNpm(join(box.home, "bin"), { "fake-pkg": "1.2.3" });
		writeFileSync(
			join(box.agentDir, "settings.json"),
			JSON.stringify({ npmCommand: npm.npmCommand, packages: ["npm:fake-pkg"] }),
		);
		server.enqueue({ text: "answer" });
		const run = await runCli(box, ["-p", "hi"], { env: { TAU_OFFLINE: "" } });
		expect(run).toMatchObject({ code: 0, stdout: "answer\n" });
		expect(run.stderr).toContain("Installing npm:fake-pkg...\n");
		expect(npm.calls().filter((args) => args[0] === "install")).toHaveLength(1);
	});

	it("update of packages runs; updating tau itself offline is an error", async () => {
		const box = sandbox();
		const packages = await runCli(box, ["update", "--extensions"]);
		expect(packages.code).toBe(0);
		expect(packages.stdout).toBe("Skipped package updates (offline mode)\n");
		for (const args of [["update"], ["update", "self"], ["update", "--self"]]) {
			const self = await runCli(box, args);
			expect(self.code).toBe(1);
			expect(self.stderr).toMatch(/^Error: cannot update tau while offline/);
		}
	});
});
