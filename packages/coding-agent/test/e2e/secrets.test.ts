import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startMockLlmServer } from "@tau/testkit";
import { describe, expect, it } from "vitest";
import { cliBuilt, runCli, sandbox, writeMockModels } from "./harness.js";

const SECRET = "sk-tau-secret-4242-do-not-log";
const WRONG = "sk-tau-wrong-9999-do-not-log";

/** Every file under `dir`, except the configuration that holds the key on purpose. */
function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return filesUnder(path);
		return name === "models.json" ? [] : [path];
	});
}

describe.skipIf(!cliBuilt)("API keys are never logged (built CLI)", () => {
	it("no session file, log, output or error message holds the key, also when the provider rejects one", async () => {
		const box = sandbox();
		const server = await startMockLlmServer({ apiKey: SECRET, idleTimeoutMs: 0, maxLifetimeMs: 0 });
		try {
			writeMockModels(box, server, { apiKey: SECRET });
			server.enqueue(
				{ toolCalls: [{ name: "bash", arguments: { command: "echo tool ran" } }] },
				{ text: "first answer" },
				{ text: "json answer" },
			);
			const runs = [
				await runCli(box, ["-p", "hi"]),
				await runCli(box, ["--mode", "json", "again"]),
				await runCli(box, ["--model", "mock/mock-model", "--api-key", WRONG, "-p", "rejected"]),
			];
			expect(runs[0]?.stdout).toBe("first answer\n");
			expect(runs[2]?.code).toBe(1);
			for (const run of runs) {
				expect(run.stdout + run.stderr).not.toContain(SECRET);
				expect(run.stdout + run.stderr).not.toContain(WRONG);
			}
			const files = filesUnder(box.home);
			expect(files.some((file) => file.endsWith(".jsonl"))).toBe(true);
			for (const file of files) {
				const text = readFileSync(file, "utf8");
				expect(text.includes(SECRET) || text.includes(WRONG), file).toBe(false);
			}
		} finally {
			await server.close();
		}
	});
});
