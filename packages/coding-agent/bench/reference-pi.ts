// The reference implementation for README §6's targets: pi 1.6, run as a black box in the same
// benchmark run as tau. pi 1.6 needs Node 22.19+, so a Node 22 binary comes from the npm registry too
// (the `node-<platform>-<arch>` packages carry the official binaries). Both are installed once into
// node_modules/.cache and reused; set TAU_BENCH_REFERENCE=0 to leave the comparison out.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

const PI_PACKAGE = "@earendil-works/pi-coding-agent";
const PI_VERSION = "1.6.0";
const NODE_VERSION = "22.23.5";

export interface Contender {
	/** Short name used in result rows, e.g. `tau` or `pi 1.6 (node 22)`. */
	label: string;
	node: string;
	cli: string;
}

export type ReferenceSetup = { contenders: Contender[] } | { skipped: string };

/** Installs (first run) and returns the reference contenders: tau and pi 1.6, both on Node 22. */
export function referenceContenders(tauCli: string): ReferenceSetup {
	if (process.env.TAU_BENCH_REFERENCE === "0") return { skipped: "TAU_BENCH_REFERENCE=0" };
	const dir = resolve(import.meta.dirname, "../../../node_modules/.cache/tau-bench-reference");
	const nodePackage = `node-${process.platform}-${process.arch}`;
	const node = join(dir, "node_modules", nodePackage, "bin", "node");
	const piCli = join(dir, "node_modules", PI_PACKAGE, "dist", "bundle", "cli.js");
	if (!existsSync(node) || !existsSync(piCli)) {
		try {
			execFileSync(
				"npm",
				[
					"install",
					"--prefix",
					dir,
					"--ignore-scripts",
					"--no-audit",
					"--no-fund",
					"--loglevel=error",
					`${nodePackage}@${NODE_VERSION}`,
					`${PI_PACKAGE}@${PI_VERSION}`,
				],
				{ stdio: ["ignore", "ignore", "pipe"] },
			);
		} catch (error) {
			return { skipped: `could not install the reference: ${(error as Error).message.split("\n")[0]}` };
		}
	}
	return {
		contenders: [
			{ label: "tau (node 22)", node, cli: tauCli },
			{ label: "pi 1.6 (node 22)", node, cli: piCli },
		],
	};
}
