// Shared by the CLI benchmarks: a sandboxed HOME per scenario, a mock provider, and a child-process
// runner that times a whole CLI run of tau or pi.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type MockLlmServer, startMockLlmServer } from "@tau/testkit";
import type { Contender } from "./reference-pi.js";

export const CLI = resolve(import.meta.dirname, "../dist/cli.js");
const API_KEY = "bench-key";

export interface Box {
	home: string;
	agentDir: string;
	project: string;
	env: NodeJS.ProcessEnv;
	rssFile: string;
}

/** A temp HOME whose agent dir points provider `mock` at `server`; children report their peak RSS. */
export function makeBox(server?: MockLlmServer, settings: Record<string, unknown> = {}): Box {
	const home = mkdtempSync(join(tmpdir(), "tau-bench-cli-"));
	const agentDir = join(home, "agent");
	const project = join(home, "project");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(project);
	const rssFile = join(home, "max-rss");
	const probe = join(home, "rss-probe.mjs");
	writeFileSync(
		probe,
		`import { writeFileSync } from "node:fs";\nprocess.on("exit", () => writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));\n`,
	);
	if (server) {
		writeFileSync(
			join(agentDir, "models.json"),
			JSON.stringify({
				providers: {
					mock: {
						baseUrl: server.baseUrl,
						api: "anthropic-messages",
						apiKey: API_KEY,
						models: [{ id: "mock-model", contextWindow: 1_000_000, maxTokens: 400_000 }],
					},
				},
			}),
		);
		writeFileSync(
			join(agentDir, "settings.json"),
			JSON.stringify({ defaultProvider: "mock", defaultModel: "mock-model", ...settings }),
		);
	}
	// pi reads the same files from its own agent dir variable; each program ignores the other's variables.
	const env = {
		PATH: process.env.PATH,
		HOME: home,
		TAU_CODING_AGENT_DIR: agentDir,
		TAU_OFFLINE: "1",
		PI_CODING_AGENT_DIR: agentDir,
		PI_OFFLINE: "1",
		PI_SKIP_VERSION_CHECK: "1",
		NODE_OPTIONS: `--import ${pathToFileURL(probe).href}`,
	};
	return { home, agentDir, project, env, rssFile };
}

/** Runs a CLI to completion, draining stdout; resolves with wall time (ms) and stdout size. */
export function run(contender: Contender, box: Box, args: readonly string[]): Promise<{ ms: number; bytes: number }> {
	const started = performance.now();
	const child = spawn(contender.node, [contender.cli, ...args], {
		cwd: box.project,
		env: box.env,
		stdio: ["ignore", "pipe", "pipe"],
	});
	let bytes = 0;
	let stderr = "";
	child.stdout.on("data", (chunk: Buffer) => (bytes += chunk.length));
	child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
	return new Promise((resolvePromise, reject) => {
		child.on("close", (code) => {
			if (code !== 0) reject(new Error(`${contender.label} ${args.join(" ")} exited ${code}: ${stderr}`));
			else resolvePromise({ ms: performance.now() - started, bytes });
		});
	});
}

export async function withServer<T>(use: (server: MockLlmServer) => Promise<T>): Promise<T> {
	const server = await startMockLlmServer({ apiKey: API_KEY, idleTimeoutMs: 0, maxLifetimeMs: 0 });
	try {
		return await use(server);
	} finally {
		await server.close();
	}
}
