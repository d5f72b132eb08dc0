import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, cliBuilt, collectRun, runCli, type Sandbox, sandbox } from "./harness.js";

function storeKey(box: Sandbox, key: string): string {
	const authPath = join(box.agentDir, "auth.json");
	writeFileSync(authPath, JSON.stringify({ anthropic: { type: "api_key", key } }), { mode: 0o600 });
	return authPath;
}

describe.skipIf(!cliBuilt)("tau auth (built CLI)", () => {
	it("check, print-api-key and logout work on auth.json and set the exit codes", async () => {
		const box = sandbox();
		const authPath = storeKey(box, "sk-e2e");
		expect(await runCli(box, ["auth", "check", "--provider", "anthropic"])).toMatchObject({
			code: 0,
			stdout: "ready\n",
		});
		expect(await runCli(box, ["auth", "print-api-key", "--model", "anthropic/claude-sonnet-4-5"])).toMatchObject({
			code: 0,
			stdout: "sk-e2e\n",
			stderr: "",
		});
		expect(await runCli(box, ["auth", "logout", "anthropic"])).toMatchObject({ code: 0 });
		expect(JSON.parse(readFileSync(authPath, "utf8"))).toEqual({});
		const after = await runCli(box, ["auth", "check", "--provider", "anthropic", "--json"]);
		expect(after.code).toBe(1);
		expect(JSON.parse(after.stdout)).toMatchObject({ status: "not_ready", provider: "anthropic" });
		expect((await runCli(box, ["auth", "logout", "anthropic"])).code).toBe(0);
		const unknown = await runCli(box, ["auth", "check", "--provider", "nope"]);
		expect(unknown).toMatchObject({ code: 2, stdout: "invalid\n" });
	});

	it("login refuses to run without a terminal", async () => {
		const box = sandbox();
		const result = await runCli(box, ["auth", "login", "anthropic", "--api-key"], { stdin: "sk-piped\n" });
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/^Error: "tau auth login" needs an interactive terminal/);
	});

	it("is handled before the check that the working directory exists", async () => {
		const box = sandbox();
		storeKey(box, "sk-e2e");
		const gone = join(box.home, "gone");
		const inDeletedCwd = (args: string[]) => {
			mkdirSync(gone);
			return collectRun(
				spawn(
					"sh",
					["-c", `cd "$1" && rmdir "$1" && shift && exec "$@"`, "sh", gone, process.execPath, CLI, ...args],
					{
						env: box.env,
						stdio: ["ignore", "pipe", "pipe"],
					},
				),
			);
		};
		expect(await inDeletedCwd(["auth", "check", "--provider", "anthropic"])).toMatchObject({
			code: 0,
			stdout: "ready\n",
		});
		const list = await inDeletedCwd(["list"]);
		expect(list.code).toBe(1);
		expect(list.stderr).toContain("The current working directory no longer exists");
	});
});
