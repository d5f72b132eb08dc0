import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliBuilt, mockServer, runCli, type Sandbox, sandbox, writeMockModels } from "./harness.js";

/** The one session file a first print run created. */
async function firstSession(box: Sandbox): Promise<string> {
	const server = await mockServer();
	writeMockModels(box, server);
	server.setFactory(() => ({ text: "answer" }));
	await runCli(box, ["-p", "first"]);
	const sessions = join(box.agentDir, "sessions");
	const [folder] = readdirSync(sessions);
	const [file] = readdirSync(join(sessions, folder!));
	return join(sessions, folder!, file!);
}

describe.skipIf(!cliBuilt)("session file integrity (built CLI)", () => {
	it("torn and invalid lines are reported once, with their count and line numbers; the rest is used", async () => {
		const box = sandbox();
		const file = await firstSession(box);
		const lines = readFileSync(file, "utf8").split("\n");
		lines.splice(2, 0, '{"type":"message","id":"torn', "not json at all");
		writeFileSync(file, lines.join("\n"));
		const result = await runCli(box, ["--session", file, "-p", "second"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("answer\n");
		const report = `Skipped 2 unparseable line(s) in ${file} (line 3, 4)`;
		expect(result.stderr.split(report)).toHaveLength(2);
	});

	it("a session from a newer format version is refused with a clear error and left as it is", async () => {
		const box = sandbox();
		const file = await firstSession(box);
		const lines = readFileSync(file, "utf8").split("\n");
		lines[0] = JSON.stringify({ ...JSON.parse(lines[0]!), version: 99 });
		const content = lines.join("\n");
		writeFileSync(file, content);
		const result = await runCli(box, ["--session", file, "-p", "second"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(
			`Session file ${file} has format version 99, newer than the version 3 this release reads; update to open it (the file was not changed)`,
		);
		expect(readFileSync(file, "utf8")).toBe(content);
	});
});
