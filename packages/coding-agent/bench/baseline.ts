// tau's previous release as a benchmark contender: the commit named by TAU_BENCH_BASELINE (a git ref),
// exported with `git archive` and built once into bench-results/baseline-<sha>/ with this checkout's
// node_modules. Unset, the comparison with the previous release is left out.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Contender } from "./cli-harness.js";

const REPO = resolve(import.meta.dirname, "../../..");

/** Links every dependency of this checkout except the workspace packages, which the baseline brings itself. */
function linkDependencies(dir: string): void {
	const modules = join(dir, "node_modules");
	mkdirSync(join(modules, "@tau"), { recursive: true });
	for (const name of readdirSync(join(REPO, "node_modules"))) {
		if (name === "@tau") continue;
		symlinkSync(join(REPO, "node_modules", name), join(modules, name));
	}
	for (const pkg of readdirSync(join(dir, "packages"))) {
		symlinkSync(join("..", "..", "packages", pkg), join(modules, "@tau", pkg));
	}
}

export function baselineContender(node: string): { contender: Contender } | { skipped: string } {
	const ref = process.env.TAU_BENCH_BASELINE;
	if (!ref) return { skipped: "set TAU_BENCH_BASELINE to a git ref (e.g. the last release) to compare with it" };
	const sha = execFileSync("git", ["rev-parse", "--short", `${ref}^{commit}`], { cwd: REPO, encoding: "utf8" }).trim();
	const dir = join(REPO, "bench-results", `baseline-${sha}`);
	const bundled = join(dir, "packages/coding-agent/dist/bundle/cli.js");
	const compiled = join(dir, "packages/coding-agent/dist/cli.js");
	if (!existsSync(compiled)) {
		console.error(`bench: building the baseline ${ref} (${sha}) in ${dir}`);
		// What an interrupted build left is started over.
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(dir, { recursive: true });
		execFileSync("sh", ["-c", `git archive ${sha} | tar -x -C ${JSON.stringify(dir)}`], { cwd: REPO });
		linkDependencies(dir);
		execFileSync(join(REPO, "node_modules/.bin/tsc"), ["-b", "packages/coding-agent"], {
			cwd: dir,
			stdio: "inherit",
		});
	}
	// A release that ships a bundle is measured as its bundle, never silently as its unbundled build:
	// a failed bundle step (also one left by an earlier run) fails the bench.
	const ships = existsSync(join(dir, "scripts/bundle-cli.mjs"));
	if (ships && !existsSync(bundled)) {
		execFileSync(process.execPath, ["scripts/bundle-cli.mjs"], { cwd: dir, stdio: "inherit" });
	}
	const cli = ships ? bundled : compiled;
	return { contender: { label: `tau ${sha} (node 22)`, node, cli } };
}
