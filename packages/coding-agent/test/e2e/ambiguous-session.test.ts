import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI, cliBuilt, type Sandbox, sandbox } from "./harness.js";
import { hasScript, startCliInTerminal } from "./terminal.js";

/** Two sessions of the sandbox's project whose ids share the prefix `abc`, each with one prompt. */
function twoSessions(box: Sandbox): void {
	for (const [id, prompt] of [
		["abc-1", "first topic"],
		["abc-2", "second topic"],
	]) {
		const run = spawnSync(process.execPath, [CLI, "--offline-demo", "--session-id", id!, "-p", prompt!], {
			cwd: box.project,
			env: box.env,
			encoding: "utf8",
			input: "",
		});
		expect(run.status, run.stderr).toBe(0);
	}
}

describe.skipIf(!cliBuilt)("--session with an ambiguous id prefix (built CLI)", () => {
	it("print mode fails and lists both sessions instead of opening one", () => {
		const box = sandbox();
		twoSessions(box);
		const run = spawnSync(process.execPath, [CLI, "--offline-demo", "--session", "abc", "-p", "hi"], {
			cwd: box.project,
			env: box.env,
			encoding: "utf8",
			input: "",
		});
		expect(run.status).toBe(1);
		expect(run.stdout).toBe("");
		expect(run.stderr).toContain("Error: Session prefix 'abc' matches 2 sessions; give more of the id:");
		expect(run.stderr).toMatch(/abc-1 .*"first topic"/);
		expect(run.stderr).toMatch(/abc-2 .*"second topic"/);
	});

	it.skipIf(!hasScript)("in a terminal, asks which one and opens the answer", async () => {
		const box = sandbox();
		twoSessions(box);
		const tau = startCliInTerminal(box, ["--offline-demo", "--session", "abc"]);
		await tau.waitForOutput("Open which session? [1-2, Enter to cancel]");
		const listed = /2\. (abc-\d)/.exec(tau.output())?.[1];
		const topic = listed === "abc-1" ? "first topic" : "second topic";
		const other = listed === "abc-1" ? "second topic" : "first topic";
		const before = tau.output().length;
		tau.type("2\r");
		await tau.waitForOutput("interrupt");
		await tau.waitForOutput(topic);
		expect(tau.output().slice(before)).not.toContain(other);
		tau.type("\x03\x03");
		expect(await tau.exited).toBe(0);
	});

	it.skipIf(!hasScript)("in a terminal, an empty answer opens nothing", async () => {
		const box = sandbox();
		twoSessions(box);
		const tau = startCliInTerminal(box, ["--offline-demo", "--session", "abc"]);
		await tau.waitForOutput("Enter to cancel]");
		tau.type("\r");
		expect(await tau.exited).toBe(0);
		expect(tau.output()).toContain("No session opened.");
		expect(tau.output()).not.toContain("\x1b[?1049h");
	});
});
