import { spawnSync } from "node:child_process";
import { homedir, tmpdir, userInfo } from "node:os";
import { getAgentDir } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";

/**
 * vitest.hermetic.ts gives every test run a temporary HOME, however the tests are started
 * (`./test.sh`, `npx vitest run`, an editor), so no test can read or write the user's real files.
 */
describe("the test environment", () => {
	it("has a temporary HOME, not the user's home directory", () => {
		expect(homedir()).not.toBe(userInfo().homedir);
		expect(homedir().startsWith(tmpdir())).toBe(true);
	});

	it("puts the XDG dirs, the npm cache and the agent dir under the run's temporary dir", () => {
		const run = homedir().slice(0, homedir().lastIndexOf("/"));
		for (const name of ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "npm_config_cache"]) {
			expect(process.env[name]?.startsWith(`${run}/`), name).toBe(true);
		}
		expect(getAgentDir().startsWith(`${homedir()}/`)).toBe(true);
	});

	it("is what a child process inherits", () => {
		const child = spawnSync(process.execPath, ["-e", "process.stdout.write(require('node:os').homedir())"], {
			encoding: "utf8",
		});
		expect(child.stdout).toBe(homedir());
	});
});
