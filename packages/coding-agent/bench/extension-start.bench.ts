import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Bench, BenchContext } from "../../../scripts/bench/api.js";
import { CLI, makeBox, run, withServer } from "./cli-harness.js";
import { writeExtensionPackages } from "./extension-packages.js";
import { type Contender, referenceContenders } from "./reference-pi.js";

/**
 * Where each program keeps compiled extension modules: tau under its agent dir, pi in jiti's cache
 * under the temp dir. Emptying it makes the next start a cold one.
 */
function compileCaches(agentDir: string, tmp: string): string[] {
	return [join(agentDir, "cache", "extensions"), join(tmp, "jiti")];
}

/** `-p` against the mock with ten installed extension packages, from an empty and from a warm compile cache. */
async function benchContender(ctx: BenchContext, contender: Contender, cleanup: string[]): Promise<void> {
	await withServer(async (server) => {
		server.setFactory(() => ({ text: "pong" }));
		const packagesRoot = join(cleanup[0]!, contender.label.replace(/\W+/g, "-"));
		const box = makeBox(server, { packages: writeExtensionPackages(packagesRoot) });
		cleanup.push(box.home);
		// pi's jiti cache lives under the temp dir; a private one makes "cold" really cold.
		const tmp = join(box.home, "tmp");
		mkdirSync(tmp);
		box.env.TMPDIR = tmp;
		// CPU time of the child as well: on a busy machine it varies far less than wall time.
		const cpuFile = join(box.home, "cpu-ms");
		const cpuProbe = join(box.home, "cpu-probe.mjs");
		writeFileSync(
			cpuProbe,
			`import { writeFileSync } from "node:fs";\nprocess.on("exit", () => { const { user, system } = process.cpuUsage(); writeFileSync(${JSON.stringify(cpuFile)}, String((user + system) / 1000)); });\n`,
		);
		box.env.NODE_OPTIONS = `${box.env.NODE_OPTIONS} --import ${pathToFileURL(cpuProbe).href}`;
		const start = async (wall: number[], cpu: number[]) => {
			wall.push((await run(contender, box, ["--no-session", "-p", "ping"])).ms);
			cpu.push(Number(readFileSync(cpuFile, "utf8")));
		};
		const cold = { wall: [] as number[], cpu: [] as number[] };
		for (let i = 0; i < 3; i++) {
			for (const dir of compileCaches(box.agentDir, tmp)) rmSync(dir, { recursive: true, force: true });
			await start(cold.wall, cold.cpu);
		}
		const warm = { wall: [] as number[], cpu: [] as number[] };
		for (let i = 0; i < 5; i++) await start(warm.wall, warm.cpu);
		const name = (what: string) => `extensions: ${contender.label} -p with 10 extension packages, ${what}`;
		ctx.record(name("cold compile cache (wall)"), "ms", cold.wall);
		ctx.record(name("warm compile cache (wall)"), "ms", warm.wall);
		ctx.record(name("cold compile cache (CPU)"), "ms", cold.cpu);
		ctx.record(name("warm compile cache (CPU)"), "ms", warm.cpu);
	});
}

const bench: Bench = async (ctx) => {
	const root = makeBox().home;
	const cleanup = [root];
	try {
		await benchContender(ctx, { label: "tau", node: process.execPath, cli: CLI }, cleanup);
		const reference = referenceContenders(CLI);
		if ("skipped" in reference) console.error(`extension bench: pi 1.6 comparison left out (${reference.skipped})`);
		else for (const contender of reference.contenders) await benchContender(ctx, contender, cleanup);
	} finally {
		for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
	}
};

export default bench;
