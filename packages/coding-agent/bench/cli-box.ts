// What the CLI benchmarks share: a temp HOME whose agent dir points tau and pi at a mock server,
// and large session files to open.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type MockLlmServer, startMockLlmServer } from "@tau/testkit";

export const API_KEY = "bench-key";

export interface Box {
	home: string;
	project: string;
	env: NodeJS.ProcessEnv;
	rssFile: string;
}

/** A temp HOME whose agent dir points provider `mock` at `server`; children report their peak RSS. */
export function makeBox(server?: MockLlmServer): Box {
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
		NODE_OPTIONS: `--import ${pathToFileURL(probe).href}`,
	};
	return { home, project, env, rssFile };
}

export async function withServer<T>(use: (server: MockLlmServer) => Promise<T>): Promise<T> {
	const server = await startMockLlmServer({ apiKey: API_KEY, idleTimeoutMs: 0, maxLifetimeMs: 0 });
	try {
		return await use(server);
	} finally {
		await server.close();
	}
}

/** A session file with `entries` alternating user/assistant messages. */
export function writeLargeSession(path: string, cwd: string, entries: number): void {
	const lines = [
		JSON.stringify({ type: "session", version: 3, id: "bench-session", timestamp: new Date(0).toISOString(), cwd }),
	];
	let parent: string | null = null;
	for (let i = 0; i < entries; i++) {
		const id = i.toString(16).padStart(8, "0");
		const timestamp = 1_700_000_000_000 + i;
		const message =
			i % 2 === 0
				? { role: "user", content: `question ${i} ${"lorem ".repeat(20)}`, timestamp }
				: {
						role: "assistant",
						content: [{ type: "text", text: `answer ${i} ${"ipsum ".repeat(40)}` }],
						api: "anthropic-messages",
						provider: "mock",
						model: "mock-model",
						usage: {
							input: 10,
							output: 10,
							cacheRead: 0,
							cacheWrite: 0,
							totalTokens: 20,
							cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
						},
						stopReason: "stop",
						timestamp,
					};
		lines.push(
			JSON.stringify({
				type: "message",
				id,
				parentId: parent,
				timestamp: new Date(timestamp).toISOString(),
				message,
			}),
		);
		parent = id;
	}
	writeFileSync(path, `${lines.join("\n")}\n`);
}
