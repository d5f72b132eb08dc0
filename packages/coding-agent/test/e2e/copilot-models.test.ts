import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliBuilt, piInstalled, runCli, runPi, type Sandbox, sandbox, trimLines } from "./harness.js";

/**
 * A GitHub Copilot sign-in in auth.json, as Pi writes it: `--list-models` offers only the models the
 * seat can use (`availableModelIds`), and every Copilot model when the credential has no such list.
 * Pi 1.6 reads the same file in the same run and must print the same table.
 */

const SEAT_MODELS = ["claude-haiku-4.5", "gpt-5.4-nano", "a-model-neither-knows"];

function writeCopilotSignIn(box: Sandbox, availableModelIds?: string[]): void {
	const credential = {
		type: "oauth",
		refresh: "gho_github-token",
		access: "tid=1;exp=9999999999;proxy-ep=proxy.individual.githubcopilot.com;sku=test",
		expires: Date.now() + 3_600_000,
		...(availableModelIds ? { availableModelIds } : {}),
	};
	writeFileSync(join(box.agentDir, "auth.json"), JSON.stringify({ "github-copilot": credential }), { mode: 0o600 });
}

const modelColumn = (table: string) =>
	table
		.trim()
		.split("\n")
		.slice(1)
		.map((row) => row.split(/\s+/).slice(0, 2).join(" "));

describe.skipIf(!cliBuilt)("--list-models with a GitHub Copilot sign-in (built CLI)", () => {
	it("lists only the models the seat can use", async () => {
		const box = sandbox();
		writeCopilotSignIn(box, SEAT_MODELS);
		const result = await runCli(box, ["--list-models"]);
		expect(result.code, result.stderr).toBe(0);
		expect(modelColumn(result.stdout)).toEqual(["github-copilot claude-haiku-4.5", "github-copilot gpt-5.4-nano"]);
	});

	it("lists every Copilot model for a credential without the list", async () => {
		const box = sandbox();
		writeCopilotSignIn(box);
		const result = await runCli(box, ["--list-models"]);
		expect(result.code, result.stderr).toBe(0);
		expect(modelColumn(result.stdout).length).toBeGreaterThan(10);
	});

	it.skipIf(!piInstalled)(
		"prints exactly pi 1.6's table for the same auth.json, with and without the list",
		async () => {
			for (const ids of [SEAT_MODELS, undefined]) {
				const box = sandbox();
				writeCopilotSignIn(box, ids);
				const [tau, pi] = await Promise.all([runCli(box, ["--list-models"]), runPi(box, ["--list-models"])]);
				expect(pi.code, pi.stderr).toBe(0);
				expect(tau.code, tau.stderr).toBe(0);
				expect(tau.stdout, String(ids)).toBe(trimLines(pi.stdout));
			}
		},
	);
});
