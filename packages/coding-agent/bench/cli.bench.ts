import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ScriptedReply } from "@tau/testkit";
import type { Bench, BenchContext } from "../../../scripts/bench/api.js";
import { type Box, makeBox, withServer, writeLargeSession } from "./cli-box.js";
import { type Contender, referenceContenders } from "./reference-pi.js";

const CLI = resolve(import.meta.dirname, "../dist/cli.js");

/** Runs a CLI to completion, draining stdout; resolves with wall time (ms) and stdout size. */
function run(contender: Contender, box: Box, args: readonly string[]): Promise<{ ms: number; bytes: number }> {
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

/** Every scenario of cli-modes' benchmark list, for one contender; rows are named `cli: <label> ...`. */
async function benchContender(ctx: BenchContext, contender: Contender, cleanup: string[]): Promise<void> {
	const name = (what: string) => `cli: ${contender.label} ${what}`;
	const versionBox = makeBox();
	cleanup.push(versionBox.home);
	const version: number[] = [];
	for (let i = 0; i < 10; i++) version.push((await run(contender, versionBox, ["--version"])).ms);
	ctx.record(name("--version (wall)"), "ms", version);

	await withServer(async (server) => {
		const box = makeBox(server);
		cleanup.push(box.home);
		server.setFactory(() => ({ text: "pong" }));
		const oneShot: number[] = [];
		const firstRequest: number[] = [];
		for (let i = 0; i < 10; i++) {
			const spawnedAt = Date.now();
			oneShot.push((await run(contender, box, ["--no-session", "-p", "ping"])).ms);
			firstRequest.push(server.requests.at(-1)!.receivedAt - spawnedAt);
		}
		ctx.record(name("-p one-shot vs mock (wall)"), "ms", oneShot);
		// README §6's startup target: process spawn until the first request reaches the provider.
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
		await run(contender, box, ["--no-session", "--mode", "json", "go"]);
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
			walls.push((await run(contender, box, ["--no-session", "--mode", "json", "stream"])).ms);
			rss.push(Number(readFileSync(box.rssFile, "utf8")) / 1024);
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
			opens.push((await run(contender, box, ["--session", file, "-p", "next"])).ms);
		}
		ctx.record(name("--session with 5,000 entries, one prompt (wall)"), "ms", opens);
	});
}

const bench: Bench = async (ctx) => {
	const cleanup: string[] = [];
	try {
		await benchContender(ctx, { label: "tau", node: process.execPath, cli: CLI }, cleanup);
		// README §6: the targets are "compared with Pi 1.6 in the same run".
		const reference = referenceContenders(CLI);
		if ("skipped" in reference) console.error(`cli bench: pi 1.6 comparison left out (${reference.skipped})`);
		else for (const contender of reference.contenders) await benchContender(ctx, contender, cleanup);
	} finally {
		for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
	}
};

export default bench;
