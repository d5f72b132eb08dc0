// Whole-process runs of a CLI (tau or pi) against the mock LLM server, shared by the CLI benchmarks.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type MockLlmServer, startMockLlmServer } from "@tau/testkit";

export const API_KEY = "bench-key";

/** A CLI to measure: `label` names its result rows. */
export interface Contender {
	label: string;
	node: string;
	cli: string;
	/** Options for Node itself, before the CLI's path (e.g. `--cpu-prof`). */
	nodeArgs?: readonly string[];
}

export interface Box {
	home: string;
	project: string;
	env: NodeJS.ProcessEnv;
	/** Where the child's exit probe writes its own CPU time, its children's and its peak RSS. */
	usageFile: string;
}

/** What one run cost: wall time, CPU (user + system of the process and the children it waited for), peak RSS. */
export interface RunCost {
	wallMs: number;
	cpuMs: number;
	peakRssMb: number;
	stdoutBytes: number;
	/** Where the main thread's time went from Node's start to exit (Linux only; see `MainThreadTime`). */
	mainThread?: MainThreadTime;
}

/**
 * The main thread's life split three ways (from `/proc/self/task/<pid>/schedstat`): running, runnable but waiting
 * for a core (the machine's load), and idle (blocked: waiting for the server, a worker thread or a timer). Of a wall
 * time well above the CPU time, only `idleMs` is waiting the CLI itself could remove. Node's uptime starts a few
 * milliseconds after the thread, so `idleMs` (clamped at 0) may read that much low.
 */
export interface MainThreadTime {
	cpuMs: number;
	runQueueMs: number;
	idleMs: number;
}

// Linux keeps the CPU time of reaped children in /proc/self/stat (fields 16 and 17, in clock ticks).
const PROBE = `import { readFileSync, writeFileSync } from "node:fs";
process.on("exit", () => {
	let children = 0;
	try {
		const fields = readFileSync("/proc/self/stat", "utf8").replace(/^.*\\) /, "").split(" ");
		children = (Number(fields[13]) + Number(fields[14])) * 10;
	} catch {}
	let mainThread;
	try {
		const [ranNs, waitedNs] = readFileSync(\`/proc/self/task/\${process.pid}/schedstat\`, "utf8").split(" ").map(Number);
		const cpuMs = ranNs / 1e6, runQueueMs = waitedNs / 1e6;
		mainThread = { cpuMs, runQueueMs, idleMs: Math.max(0, process.uptime() * 1000 - cpuMs - runQueueMs) };
	} catch {}
	const own = process.cpuUsage();
	const usage = { cpuMs: (own.user + own.system) / 1000 + children, maxRssKb: process.resourceUsage().maxRSS, mainThread };
	writeFileSync(process.env.TAU_BENCH_USAGE_FILE, JSON.stringify(usage));
});
`;

/** A temp HOME whose agent dir points provider `mock` at `server`; both tau and pi read it. */
export function makeBox(server?: MockLlmServer): Box {
	const home = mkdtempSync(join(tmpdir(), "tau-bench-cli-"));
	const agentDir = join(home, "agent");
	const project = join(home, "project");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(project);
	const usageFile = join(home, "usage.json");
	const probe = join(home, "usage-probe.mjs");
	writeFileSync(probe, PROBE);
	if (server) {
		writeFileSync(
			join(agentDir, "models.json"),
			JSON.stringify({
				providers: {
					mock: {
						baseUrl: server.baseUrl,
						api: "anthropic-messages",
						apiKey: API_KEY,
						models: [{ id: "mock-model", contextWindow: 4_000_000, maxTokens: 2_000_000 }],
					},
				},
			}),
		);
		writeFileSync(
			join(agentDir, "settings.json"),
			JSON.stringify({ defaultProvider: "mock", defaultModel: "mock-model" }),
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
		TAU_BENCH_USAGE_FILE: usageFile,
		NODE_OPTIONS: `--import ${pathToFileURL(probe).href}`,
	};
	return { home, project, env, usageFile };
}

/** Runs a CLI to completion, draining stdout; rejects on a non-zero exit. */
export function runCli(contender: Contender, box: Box, args: readonly string[]): Promise<RunCost> {
	const started = performance.now();
	const child = spawn(contender.node, [...(contender.nodeArgs ?? []), contender.cli, ...args], {
		cwd: box.project,
		env: box.env,
		stdio: ["ignore", "pipe", "pipe"],
	});
	let stdoutBytes = 0;
	let stderr = "";
	child.stdout.on("data", (chunk: Buffer) => (stdoutBytes += chunk.length));
	child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
	return new Promise((resolve, reject) => {
		child.on("close", (code) => {
			const wallMs = performance.now() - started;
			if (code !== 0) {
				reject(new Error(`${contender.label} ${args.join(" ")} exited ${code}: ${stderr}`));
				return;
			}
			const usage = JSON.parse(readFileSync(box.usageFile, "utf8")) as {
				cpuMs: number;
				maxRssKb: number;
				mainThread?: MainThreadTime;
			};
			const { cpuMs, maxRssKb, mainThread } = usage;
			resolve({ wallMs, cpuMs, peakRssMb: maxRssKb / 1024, stdoutBytes, mainThread });
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
