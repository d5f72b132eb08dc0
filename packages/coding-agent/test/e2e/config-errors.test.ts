import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliBuilt, mockServer, runCli, sandbox, writeMockModels } from "./harness.js";

const BROKEN = '{\n  "anthropic": { "type": "api_key", "key": "k" },,\n}\n';

describe.skipIf(!cliBuilt)("broken configuration files at start (built CLI)", () => {
	it("a broken auth.json is reported at start with file, line and column; the run goes on and the file is kept", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const auth = join(box.agentDir, "auth.json");
		writeFileSync(auth, BROKEN, { mode: 0o600 });
		server.enqueue({ text: "still works" });
		const result = await runCli(box, ["-p", "hi"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("still works\n");
		expect(result.stderr).toContain(`Invalid credentials file ${auth}:2:50: Expected double-quoted property name`);
		expect(readFileSync(auth, "utf8")).toBe(BROKEN);
	});

	it("a broken settings.json names its location instead of a failed migration, and is never rewritten", async () => {
		const box = sandbox();
		const settings = join(box.agentDir, "settings.json");
		writeFileSync(settings, BROKEN);
		const result = await runCli(box, ["--offline-demo", "-p", "hi"]);
		expect(result.code).toBe(0);
		expect(result.stderr).toContain(`Invalid settings file ${settings}:2:50: Expected double-quoted property name`);
		expect(result.stderr).not.toContain("Migration");
		expect(readFileSync(settings, "utf8")).toBe(BROKEN);
	});
});
