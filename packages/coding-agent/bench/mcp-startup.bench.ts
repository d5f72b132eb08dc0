// `-p` with 0, 3 and 10 configured MCP servers (real ones from npm), tau beside pi 1.6 in the same
// run: wall time, and process spawn until the first request reaches the provider. The `direct` rows
// make both programs connect every server before the first request (direct tools are declared there).
import { rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Bench, BenchContext } from "../../../scripts/bench/api.js";
import { ensureMcpTestServers } from "../../../scripts/mcp-test-servers.mjs";
import { type Box, type Contender, makeBox, runCli, withServer } from "./cli-harness.js";
import { referenceContenders } from "./reference-pi.js";

const CLI = resolve(import.meta.dirname, "../dist/bundle/cli.js");

const RUNS = 8;
const KINDS = ["everything", "filesystem", "memory"] as const;

/** `count` servers cycling through the three real ones, each with its own name. */
function mcpServers(bin: string, box: Box, count: number, exposure?: "direct"): Record<string, unknown> {
	const servers: Record<string, unknown> = {};
	for (let i = 0; i < count; i++) {
		const kind = KINDS[i % KINDS.length]!;
		servers[`${kind}${i}`] = {
			command: join(bin, `mcp-server-${kind}`),
			...(kind === "filesystem" ? { args: [box.project] } : {}),
			...(kind === "memory" ? { env: { MEMORY_FILE_PATH: join(box.home, `memory${i}.jsonl`) } } : {}),
			...(exposure ? { exposure } : {}),
		};
	}
	return servers;
}

const SCENARIOS: { label: string; count: number; exposure?: "direct" }[] = [
	{ label: "0 servers", count: 0 },
	{ label: "3 servers", count: 3 },
	{ label: "10 servers", count: 10 },
	{ label: "3 direct servers", count: 3, exposure: "direct" },
];

/**
 * One scenario for every contender, their runs interleaved (tau, pi, tau, pi, …) so a machine whose
 * load changes during the benchmark weighs on all of them alike.
 */
async function benchScenario(
	ctx: BenchContext,
	contenders: readonly Contender[],
	scenario: (typeof SCENARIOS)[number],
	bin: string,
	cleanup: string[],
): Promise<void> {
	await withServer(async (server) => {
		const box = makeBox(server);
		cleanup.push(box.home);
		server.setFactory(() => ({ text: "pong" }));
		writeFileSync(
			join(box.home, "agent", "mcp.json"),
			JSON.stringify({ mcpServers: mcpServers(bin, box, scenario.count, scenario.exposure) }),
		);
		const walls = contenders.map((): number[] => []);
		const firstRequest = contenders.map((): number[] => []);
		for (let i = 0; i < RUNS; i++) {
			for (const [k, contender] of contenders.entries()) {
				const spawnedAt = Date.now();
				walls[k]!.push((await runCli(contender, box, ["--no-session", "-p", "ping"])).wallMs);
				firstRequest[k]!.push(server.requests.at(-1)!.receivedAt - spawnedAt);
			}
		}
		for (const [k, contender] of contenders.entries()) {
			const name = (what: string) => `mcp: ${contender.label} -p with ${scenario.label} ${what}`;
			ctx.record(name("(wall)"), "ms", walls[k]!);
			ctx.record(name("spawn to first request"), "ms", firstRequest[k]!);
		}
	});
}

const bench: Bench = async (ctx) => {
	const servers = ensureMcpTestServers();
	if ("skipped" in servers) {
		console.error(`mcp-startup bench: left out (${servers.skipped})`);
		return;
	}
	const contenders: Contender[] = [{ label: "tau", node: process.execPath, cli: CLI }];
	const reference = referenceContenders(CLI);
	if ("skipped" in reference) console.error(`mcp-startup bench: pi 1.6 comparison left out (${reference.skipped})`);
	else contenders.push(...reference.contenders);
	const cleanup: string[] = [];
	try {
		for (const scenario of SCENARIOS) await benchScenario(ctx, contenders, scenario, servers.bin, cleanup);
	} finally {
		for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
	}
};

export default bench;
