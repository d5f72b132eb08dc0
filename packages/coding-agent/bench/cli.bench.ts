import { rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ScriptedReply } from "@tau/testkit";
import type { Bench, BenchContext } from "../../../scripts/bench/api.js";
import { type Contender, makeBox, runCli, withServer } from "./cli-harness.js";
import { writeLargeSession } from "./large-session.js";
import { referenceContenders } from "./reference-pi.js";

const CLI = resolve(import.meta.dirname, "../dist/bundle/cli.js");

/** Every scenario of cli-modes' benchmark list, for one contender; rows are named `cli: <label> ...`. */
async function benchContender(ctx: BenchContext, contender: Contender, cleanup: string[]): Promise<void> {
	const name = (what: string) => `cli: ${contender.label} ${what}`;
	const versionBox = makeBox();
	cleanup.push(versionBox.home);
	const version: number[] = [];
	for (let i = 0; i < 10; i++) version.push((await runCli(contender, versionBox, ["--version"])).wallMs);
	ctx.record(name("--version (wall)"), "ms", version);

	await withServer(async (server) => {
		const box = makeBox(server);
		cleanup.push(box.home);
		server.setFactory(() => ({ text: "pong" }));
		const oneShot: number[] = [];
		const firstRequest: number[] = [];
		for (let i = 0; i < 10; i++) {
			const spawnedAt = Date.now();
			oneShot.push((await runCli(contender, box, ["--no-session", "-p", "ping"])).wallMs);
			firstRequest.push(server.requests.at(-1)!.receivedAt - spawnedAt);
		}
		ctx.record(name("-p one-shot vs mock (wall)"), "ms", oneShot);
		// The startup goal (ARCHITECTURE.md#performance-goals): process spawn until the first request reaches the provider.
		ctx.record(name("-p spawn to first request"), "ms", firstRequest);
	});

	await withServer(async (server) => {
		const box = makeBox(server);
		cleanup.push(box.home);
		writeFileSync(join(box.project, "file.txt"), "hello\n");
		const turns: ScriptedReply[] = Array.from({ length: 20 }, (_, i) => ({
			toolCalls: [{ id: `call_${i}`, name: "read", arguments: { path: "file.txt" } }],
			stopReason: "toolUse" as const,
		}));
		server.enqueue(...turns, { text: "done" });
		await runCli(contender, box, ["--no-session", "--mode", "json", "go"]);
		const requests = server.requests;
		const gaps = requests
			.slice(1)
			.map((request, i) => request.receivedAt - (requests[i]!.settledAt ?? requests[i]!.receivedAt));
		ctx.record(name("20-turn tool loop, harness time between turns (json)"), "ms", gaps);
	});

	await withServer(async (server) => {
		const box = makeBox(server);
		cleanup.push(box.home);
		const walls: number[] = [];
		const rss: number[] = [];
		for (let i = 0; i < 3; i++) {
			server.enqueue({ text: { tokens: 200_000 }, chunkSize: 64 });
			const cost = await runCli(contender, box, ["--no-session", "--mode", "json", "stream"]);
			walls.push(cost.wallMs);
			rss.push(cost.peakRssMb);
		}
		ctx.record(name("200k-token stream in json mode (wall)"), "ms", walls);
		ctx.record(name("200k-token stream in json mode (peak RSS)"), "MB", rss);
	});

	await withServer(async (server) => {
		const box = makeBox(server);
		cleanup.push(box.home);
		const file = join(box.home, "large-session.jsonl");
		server.setFactory(() => ({ text: "ok" }));
		const opens: number[] = [];
		for (let i = 0; i < 5; i++) {
			writeLargeSession(file, box.project, 5_000);
			opens.push((await runCli(contender, box, ["--session", file, "-p", "next"])).wallMs);
		}
		ctx.record(name("--session with 5,000 entries, one prompt (wall)"), "ms", opens);
	});
}

const bench: Bench = async (ctx) => {
	const cleanup: string[] = [];
	try {
		await benchContender(ctx, { label: "tau", node: process.execPath, cli: CLI }, cleanup);
		// The goals are compared with Pi 1.6 in the same run (ARCHITECTURE.md#performance-goals).
		const reference = referenceContenders(CLI);
		if ("skipped" in reference) console.error(`cli bench: pi 1.6 comparison left out (${reference.skipped})`);
		else for (const contender of reference.contenders) await benchContender(ctx, contender, cleanup);
	} finally {
		for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
	}
};

export default bench;
