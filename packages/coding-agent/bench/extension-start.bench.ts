import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
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
		const start = () => run(contender, box, ["--no-session", "-p", "ping"]);
		const cold: number[] = [];
		for (let i = 0; i < 3; i++) {
			for (const dir of compileCaches(box.agentDir, tmp)) rmSync(dir, { recursive: true, force: true });
			cold.push((await start()).ms);
		}
		const warm: number[] = [];
		for (let i = 0; i < 5; i++) warm.push((await start()).ms);
		const name = (what: string) => `extensions: ${contender.label} -p with 10 extension packages, ${what} (wall)`;
		ctx.record(name("cold compile cache"), "ms", cold);
		ctx.record(name("warm compile cache"), "ms", warm);
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
