import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resumeCommand } from "../../src/modes/interactive/resume-hint.js";
import { CLI, cliBuilt, sandbox } from "./harness.js";

describe("the resume hint printed on exit", () => {
	it("quotes a session path that a shell would split or interpret", () => {
		expect(resumeCommand("/home/u/.tau/agent/sessions/--p--/a_01.jsonl")).toBe(
			"tau --session /home/u/.tau/agent/sessions/--p--/a_01.jsonl",
		);
		expect(resumeCommand("/tmp/my dir/it's.jsonl")).toBe("tau --session '/tmp/my dir/it'\\''s.jsonl'");
	});

	it.skipIf(!cliBuilt)("names a command that resumes the session from another directory", () => {
		const box = sandbox();
		const elsewhere = join(box.home, "elsewhere");
		mkdirSync(elsewhere);
		const run = (cwd: string, args: string[]) =>
			spawnSync(process.execPath, [CLI, "--offline-demo", ...args], {
				cwd,
				env: box.env,
				encoding: "utf8",
				input: "",
			});
		expect(run(box.project, ["-p", "first"]).status).toBe(0);
		const sessionsDir = join(box.agentDir, "sessions");
		const [projectDir] = readdirSync(sessionsDir);
		const [name] = readdirSync(join(sessionsDir, projectDir!));
		const file = join(sessionsDir, projectDir!, name!);

		// The hint's arguments (the path needs no quoting here), run outside the session's project.
		const resumed = run(elsewhere, [...resumeCommand(file).split(" ").slice(1), "-p", "second"]);
		expect(resumed.stderr).toBe("");
		expect(resumed.status).toBe(0);
		const prompts = readFileSync(file, "utf8")
			.split("\n")
			.filter((line) => line.includes('"role":"user"'));
		expect(prompts).toHaveLength(2);
		const files = readdirSync(sessionsDir).flatMap((dir) => readdirSync(join(sessionsDir, dir)));
		expect(files).toEqual([name]);
	});
});
