import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type MockLlmServer, startMockLlmServer } from "@tau/testkit";
import { afterEach } from "vitest";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
/** The shipped CLI: the esbuild bundle of the compiled sources (`scripts/bundle-cli.mjs`). */
export const CLI = join(REPO_ROOT, "packages/coding-agent/dist/bundle/cli.js");
export const API_KEY = "test-key";

/** The e2e tests spawn the built CLI; `./test.sh` builds it first (`npm run build` by hand). */
export const cliBuilt = existsSync(CLI);

export interface Sandbox {
	home: string;
	agentDir: string;
	project: string;
	env: NodeJS.ProcessEnv;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A temp HOME with an agent dir and an empty project directory; no provider keys in the environment. */
export function sandbox(): Sandbox {
	const home = mkdtempSync(join(tmpdir(), "tau-e2e-"));
	const agentDir = join(home, ".tau", "agent");
	const project = join(home, "project");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(project, { recursive: true });
	const env: NodeJS.ProcessEnv = {
		PATH: process.env.PATH,
		HOME: home,
		TAU_CODING_AGENT_DIR: agentDir,
		TAU_OFFLINE: "1",
		NO_COLOR: "1",
	};
	return { home, agentDir, project, env };
}

/** A mock LLM server closed after the test. */
export async function mockServer(): Promise<MockLlmServer> {
	const server = await startMockLlmServer({ apiKey: API_KEY, idleTimeoutMs: 0, maxLifetimeMs: 0 });
	cleanups.push(() => server.close());
	return server;
}

/** models.json with provider `mock` (Anthropic Messages protocol) pointing at `server`. */
export function writeMockModels(
	box: Sandbox,
	server: MockLlmServer,
	options: { apiKey?: string; contextWindow?: number; maxTokens?: number } = {},
): void {
	const models = {
		providers: {
			mock: {
				baseUrl: server.baseUrl,
				api: "anthropic-messages",
				apiKey: options.apiKey ?? API_KEY,
				models: [
					{
						id: "mock-model",
						name: "Mock Model",
						reasoning: false,
						input: ["text", "image"],
						contextWindow: options.contextWindow ?? 200_000,
						maxTokens: options.maxTokens ?? 8192,
						cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
					},
				],
			},
		},
	};
	writeFileSync(join(box.agentDir, "models.json"), JSON.stringify(models));
	writeFileSync(
		join(box.agentDir, "settings.json"),
		JSON.stringify({ defaultProvider: "mock", defaultModel: "mock-model", retry: { baseDelayMs: 1 } }),
	);
}

export interface RunResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

export interface RunOptions {
	cwd?: string;
	/** Written to stdin and closed; without it stdin is `/dev/null`. */
	stdin?: string;
	env?: NodeJS.ProcessEnv;
}

/** Spawns the built CLI and collects its output. */
export function startCli(box: Sandbox, args: readonly string[], options: RunOptions = {}): ChildProcess {
	const child = spawn(process.execPath, [CLI, ...args], {
		cwd: options.cwd ?? box.project,
		env: { ...box.env, ...options.env },
		stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
	});
	if (options.stdin !== undefined) child.stdin?.end(options.stdin);
	cleanups.push(() => {
		if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
	});
	return child;
}

export function collectRun(child: ChildProcess): Promise<RunResult> {
	let stdout = "";
	let stderr = "";
	child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
	child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
	return new Promise((resolvePromise, reject) => {
		child.on("error", reject);
		child.on("close", (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
	});
}

export function runCli(box: Sandbox, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
	return collectRun(startCli(box, args, options));
}

// pi 1.6 itself, as a black-box oracle: ./test.sh installs it with scripts/pi-reference.mjs (from the
// npm registry, with the Node 22 it needs) and passes the paths in. Without them the pi tests skip.
export const PI_NODE = process.env.TAU_PI_NODE ?? "";
export const PI_CLI = process.env.TAU_PI_CLI ?? "";
export const piInstalled = PI_NODE !== "" && PI_CLI !== "" && existsSync(PI_NODE) && existsSync(PI_CLI);

/**
 * Runs pi 1.6 in the sandbox: same agent dir (settings, models.json, sessions) as tau. pi may exit before
 * a pipe has taken all of a large output, so its stdout goes to a file (written synchronously) and is
 * read back.
 */
export async function runPi(box: Sandbox, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
	const stdoutFile = join(mkdtempSync(join(box.home, "pi-out-")), "stdout");
	const fd = openSync(stdoutFile, "w");
	const child = spawn(PI_NODE, [PI_CLI, ...args], {
		cwd: box.project,
		env: { ...box.env, PI_CODING_AGENT_DIR: box.agentDir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", ...env },
		stdio: ["ignore", fd, "pipe"],
	});
	closeSync(fd);
	const result = await collectRun(child);
	return { ...result, stdout: readFileSync(stdoutFile, "utf8") };
}

/** A `--list-models` table of pi's as tau prints it: pi pads the last column, tau trims trailing blanks. */
export function trimLines(text: string): string {
	return text
		.split("\n")
		.map((line) => line.trimEnd())
		.join("\n");
}

/** JSON-mode stdout as records. */
export function jsonLines(stdout: string): Array<Record<string, unknown>> {
	return stdout
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}
