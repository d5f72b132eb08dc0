import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlmServer } from "@tau/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { cliBuilt, runCli, sandbox } from "./harness.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
	for (const close of closers.splice(0)) await close();
});

interface Case {
	provider: string;
	model: string;
	/** The provider's base URL path on the mock (models.json points the built-in provider there). */
	basePath: string;
	env: Record<string, string>;
	path: string;
}

const CASES: Case[] = [
	{
		provider: "google",
		model: "gemini-2.5-flash",
		basePath: "/v1beta",
		env: { GEMINI_API_KEY: "test-key" },
		path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
	},
	{
		provider: "mistral",
		model: "devstral-medium-latest",
		basePath: "/mistral",
		env: { MISTRAL_API_KEY: "test-key" },
		path: "/mistral/v1/chat/completions",
	},
	{
		provider: "amazon-bedrock",
		model: "us.anthropic.claude-opus-5-5",
		basePath: "",
		env: { AWS_ACCESS_KEY_ID: "test-key", AWS_SECRET_ACCESS_KEY: "secret", AWS_REGION: "us-east-1" },
		path: "/model/us.anthropic.claude-opus-5-5/converse-stream",
	},
];

describe.skipIf(!cliBuilt)("catalog providers over the new wire APIs (built CLI)", () => {
	it.each(CASES)(
		"tau -p with $provider/$model reaches its API with the credentials from the environment",
		async (entry) => {
			const server = await startMockLlmServer({ apiKey: "test-key", idleTimeoutMs: 0, maxLifetimeMs: 0 });
			closers.push(() => server.close());
			server.enqueue({ text: `answered by ${entry.provider}` });
			const box = sandbox();
			const baseUrl = entry.basePath ? server.url(entry.basePath) : server.baseUrl;
			writeFileSync(
				join(box.agentDir, "models.json"),
				JSON.stringify({ providers: { [entry.provider]: { baseUrl } } }),
			);
			const result = await runCli(box, ["--model", `${entry.provider}/${entry.model}`, "-p", "hi"], {
				env: entry.env,
			});
			expect(result.stderr).toBe("");
			expect(result.stdout).toBe(`answered by ${entry.provider}\n`);
			expect(server.requests[0]?.path).toBe(entry.path);
		},
	);
});
