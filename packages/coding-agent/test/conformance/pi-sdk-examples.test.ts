import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockLlmServer } from "@tau/testkit";
import { describe, expect, it } from "vitest";
import { cliBuilt, REPO_ROOT } from "../e2e/harness.js";
import { PI_MISSING, PI_NODE, PI_PACKAGE_DIR, piInstalled } from "../support/pi-reference.js";

/**
 * Pi 1.6's SDK examples (from the installed package) run under pi and, with only the imports renamed
 * to @tau/*, under tau, against the same scripted model; they print the same (docs/pi-compatibility.md).
 * Both run on pi's Node 22, which strips the examples' types itself.
 */

/** How an example's output is compared, when not as a whole. */
const COMPARISON: Record<string, { reason: string; compare: (output: RunOutput) => unknown }> = {
	"01-minimal.ts": {
		reason: "it also logs the full messages, whose system prompt is each harness's own wording",
		compare: (output) => ({ code: output.code, streamed: output.stdout.split("{")[0] }),
	},
	"02-custom-model.ts": {
		reason: "tau's built-in catalog has no anthropic/claude-opus-4-5, so the 'Found model' line is pi's only",
		compare: (output) => ({ code: output.code, stdout: output.stdout.replace(/^Found model: .*\n/m, "") }),
	},
	"12-full-control.ts": {
		reason: "both reject the prompt without an Anthropic key; tau's message names the fix in one sentence",
		compare: (output) => ({ code: output.code, error: /No API key found for anthropic/.test(output.stderr) }),
	},
};

interface RunOutput {
	code: number | null;
	stdout: string;
	stderr: string;
}

function normalize(text: string, home: string): string {
	return text
		.replaceAll(home, "<HOME>")
		.replace(/\.(pi|tau)\/agent/g, "<AGENT>")
		.replace(/--[^/]*-project--/g, "--<PROJECT>--")
		.replace(/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z/g, "<TIME>")
		.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<ID>");
}

/** One example run in a fresh HOME whose agent dir points the default model at a mock server. */
async function runExample(harness: "pi" | "tau", file: string): Promise<RunOutput> {
	const server = await startMockLlmServer({ apiKey: "test-key", idleTimeoutMs: 0, maxLifetimeMs: 0 });
	server.enqueue({ text: "first reply" }, { text: "second reply" }, { text: "third reply" });
	const home = mkdtempSync(join(tmpdir(), `tau-sdk-example-${harness}-`));
	const agentDir = join(home, harness === "pi" ? ".pi" : ".tau", "agent");
	const project = join(home, "project");
	mkdirSync(agentDir, { recursive: true });
	const model = {
		id: "mock-model",
		name: "Mock Model",
		reasoning: false,
		input: ["text"],
		contextWindow: 200_000,
		maxTokens: 8192,
	};
	const cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
	writeFileSync(
		join(agentDir, "models.json"),
		JSON.stringify({
			providers: {
				mock: {
					baseUrl: server.baseUrl,
					api: "anthropic-messages",
					apiKey: "test-key",
					models: [{ ...model, cost }],
				},
			},
		}),
	);
	writeFileSync(
		join(agentDir, "settings.json"),
		JSON.stringify({ defaultProvider: "mock", defaultModel: "mock-model" }),
	);
	cpSync(join(PI_PACKAGE_DIR, "examples", "sdk"), project, { recursive: true });
	writeFileSync(join(project, "package.json"), JSON.stringify({ type: "module" }));
	if (harness === "pi") symlinkSync(join(PI_PACKAGE_DIR, "..", ".."), join(project, "node_modules"));
	else {
		symlinkSync(join(REPO_ROOT, "node_modules"), join(project, "node_modules"));
		const path = join(project, file);
		writeFileSync(
			path,
			readFileSync(path, "utf8").replace(
				/@earendil-works\/pi-(coding-agent|agent-core|tui|ai)/g,
				(_, name: string) => `@tau/${name === "agent-core" ? "agent" : name}`,
			),
		);
	}
	const env = {
		PATH: process.env.PATH,
		HOME: home,
		PI_CODING_AGENT_DIR: agentDir,
		TAU_CODING_AGENT_DIR: agentDir,
		PI_OFFLINE: "1",
		TAU_OFFLINE: "1",
		PI_SKIP_VERSION_CHECK: "1",
		NO_COLOR: "1",
	};
	try {
		return await new Promise((resolve, reject) => {
			const child = spawn(PI_NODE, [join(project, file)], { cwd: project, env, stdio: ["ignore", "pipe", "pipe"] });
			let stdout = "";
			let stderr = "";
			child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
			child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
			child.on("error", reject);
			child.on("close", (code) =>
				resolve({ code, stdout: normalize(stdout, home), stderr: normalize(stderr, home) }),
			);
		});
	} finally {
		await server.close();
	}
}

const examples = piInstalled
	? readdirSync(join(PI_PACKAGE_DIR, "examples", "sdk")).filter((file) => file.endsWith(".ts"))
	: [];

describe.skipIf(!piInstalled || !cliBuilt)(
	`pi 1.6 SDK examples under tau (${piInstalled ? "installed pi" : PI_MISSING})`,
	() => {
		it("covers pi's SDK examples", () => {
			expect(examples.length).toBeGreaterThanOrEqual(14);
		});

		for (const file of examples) {
			const special = COMPARISON[file];
			it(`${file} prints what it prints under pi${special ? ` (${special.reason})` : ""}`, async () => {
				const [pi, tau] = await Promise.all([runExample("pi", file), runExample("tau", file)]);
				const view = special?.compare ?? ((output: RunOutput) => ({ code: output.code, stdout: output.stdout }));
				expect(view(pi)).toMatchObject({ code: expect.anything() });
				expect(view(tau)).toEqual(view(pi));
			}, 120_000);
		}
	},
);
