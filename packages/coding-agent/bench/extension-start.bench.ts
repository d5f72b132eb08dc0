import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Bench, BenchContext } from "../../../scripts/bench/api.js";
import { type Contender, makeBox, runCli, withServer } from "./cli-harness.js";
import { writeExtensionPackages } from "./extension-packages.js";
import { referenceContenders } from "./reference-pi.js";

const CLI = resolve(import.meta.dirname, "../dist/bundle/cli.js");

/**
 * Where each program keeps compiled extension modules: tau under its agent dir, pi in jiti's cache
 * under the temp dir. Emptying them makes the next start a cold one.
 */
function compileCaches(agentDir: string, tmp: string): string[] {
	return [join(agentDir, "cache", "extensions"), join(tmp, "jiti")];
}

/** `-p` against the mock with ten installed extension packages, from an empty and from a warm compile cache. */
async function benchContender(ctx: BenchContext, contender: Contender, root: string): Promise<string> {
	return withServer(async (server) => {
		server.setFactory(() => ({ text: "pong" }));
		const box = makeBox(server);
		const agentDir = join(box.home, "agent");
		const settingsPath = join(agentDir, "settings.json");
		const packages = writeExtensionPackages(join(root, contender.label.replace(/\W+/g, "-")));
		writeFileSync(settingsPath, JSON.stringify({ ...JSON.parse(readFileSync(settingsPath, "utf8")), packages }));
		// pi's jiti cache lives under the temp dir; a private one makes "cold" really cold.
		const tmp = join(box.home, "tmp");
		mkdirSync(tmp);
		box.env.TMPDIR = tmp;
		const runs = {
			cold: { wall: [] as number[], cpu: [] as number[] },
			warm: { wall: [] as number[], cpu: [] as number[] },
		};
		const start = async (samples: { wall: number[]; cpu: number[] }) => {
			const cost = await runCli(contender, box, ["--no-session", "-p", "ping"]);
			samples.wall.push(cost.wallMs);
			samples.cpu.push(cost.cpuMs);
		};
		for (let i = 0; i < 3; i++) {
			for (const dir of compileCaches(agentDir, tmp)) rmSync(dir, { recursive: true, force: true });
			await start(runs.cold);
		}
		for (let i = 0; i < 5; i++) await start(runs.warm);
		// CPU time as well as wall time: on a busy machine it varies far less.
		for (const [state, samples] of Object.entries(runs)) {
			const name = (unit: string) =>
				`extensions: ${contender.label} -p with 10 extension packages, ${state} compile cache (${unit})`;
			ctx.record(name("wall"), "ms", samples.wall);
			ctx.record(name("CPU"), "ms", samples.cpu);
		}
		return box.home;
	});
}

const bench: Bench = async (ctx) => {
	const root = makeBox().home;
	const cleanup = [root];
	try {
		cleanup.push(await benchContender(ctx, { label: "tau", node: process.execPath, cli: CLI }, root));
		const reference = referenceContenders(CLI);
		if ("skipped" in reference) console.error(`extension bench: pi 1.6 comparison left out (${reference.skipped})`);
		else for (const contender of reference.contenders) cleanup.push(await benchContender(ctx, contender, root));
	} finally {
		for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
	}
};

export default bench;
