import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fakeNpmRelease } from "../cli/fake-npm-release.js";
import { cliBuilt, REPO_ROOT, runCli, sandbox } from "./harness.js";

const { name, version } = JSON.parse(readFileSync(join(REPO_ROOT, "packages/coding-agent/package.json"), "utf8")) as {
	name: string;
	version: string;
};

describe.skipIf(!cliBuilt)("tau update (built CLI)", () => {
	it("conflicting options are an error with the usage line", async () => {
		const box = sandbox();
		const result = await runCli(box, ["update", "--all", "--models"]);
		expect(result.code).toBe(1);
		expect(result.stdout).toBe("");
		expect(result.stderr).toBe(
			"--all cannot be combined with --models.\n" +
				"Usage: tau update [source|self|pi] [--self|--extensions|--models|--all] [--extension <source>] [-a|--approve] [-na|--no-approve] [--force]\n",
		);
	});

	it("TAU_SELF_UPDATE_COMMAND replaces the built-in self-update when npm reports a newer release", async () => {
		const box = sandbox();
		const npm = fakeNpmRelease({ latest: "999.0.0" });
		writeFileSync(join(box.agentDir, "settings.json"), JSON.stringify({ npmCommand: npm.npmCommand }));
		const result = await runCli(box, ["update"], {
			env: { TAU_OFFLINE: "", TAU_SELF_UPDATE_COMMAND: npm.commandLine("upgrade", "{installSpec}") },
		});
		expect(result).toMatchObject({
			code: 0,
			stdout: `Updating tau ${version} -> 999.0.0...\nUpdated tau to 999.0.0\n`,
			stderr: "",
		});
		expect(npm.calls()).toEqual([
			["view", name, "version", "--json"],
			["upgrade", `${name}@999.0.0`],
		]);
	});
});
