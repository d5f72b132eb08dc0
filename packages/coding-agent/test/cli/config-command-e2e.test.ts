import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliBuilt, runCli, sandbox } from "../e2e/harness.js";

describe.skipIf(!cliBuilt)("tau config (built CLI)", () => {
	it("-l in an untrusted project fails with the trust message, exit 1, nothing written", async () => {
		const box = sandbox();
		mkdirSync(join(box.project, ".tau"), { recursive: true });
		writeFileSync(join(box.project, ".tau", "settings.json"), "{}\n");
		const result = await runCli(box, ["config", "-l"]);
		expect(result).toMatchObject({
			code: 1,
			stdout: "",
			stderr: "Error: Project is not trusted. Use --approve to modify local resource config.\n",
		});
		expect(readFileSync(join(box.project, ".tau", "settings.json"), "utf8")).toBe("{}\n");
	});

	it("without a terminal it is an error, also for a trusted project scope", async () => {
		const box = sandbox();
		const result = await runCli(box, ["config"]);
		expect(result).toMatchObject({
			code: 1,
			stdout: "",
			stderr: "Error: tau config requires an interactive terminal\n",
		});
		const local = await runCli(box, ["config", "-l", "--approve"]);
		expect(local).toMatchObject({ code: 1, stderr: "Error: tau config requires an interactive terminal\n" });
	});

	it("unknown options are errors with the usage line", async () => {
		const box = sandbox();
		const result = await runCli(box, ["config", "--frobnicate"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toBe(
			'Unknown option --frobnicate for "config".\nUsage: tau config [-l|--local] [-a|--approve] [-na|--no-approve]\n',
		);
	});
});
