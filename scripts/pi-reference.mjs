// The pi 1.6 reference: a black-box oracle for compatibility tests and the benchmark comparison
// (ARCHITECTURE.md#performance-goals). pi 1.6 needs Node 22.19+, so the official Node 22 binary comes from the npm
// registry as well (`node-<platform>-<arch>` packages). Both are installed once into
// node_modules/.cache/tau-pi-reference and reused.
//
// As a script: installs if needed and prints `TAU_PI_NODE=<path>` and `TAU_PI_CLI=<path>`, or one
// line `skipped: <reason>` (exit code 0 either way: the reference is optional).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

const PI_PACKAGE = "@earendil-works/pi-coding-agent";
const PI_VERSION = "1.6.0";
const NODE_VERSION = "22.23.5";

/** @returns {{ node: string, cli: string } | { skipped: string }} */
export function ensurePiReference() {
	if (process.env.TAU_PI_REFERENCE === "0") return { skipped: "TAU_PI_REFERENCE=0" };
	const dir = resolve(import.meta.dirname, "../node_modules/.cache/tau-pi-reference");
	const nodePackage = `node-${process.platform}-${process.arch}`;
	const node = join(dir, "node_modules", nodePackage, "bin", "node");
	const cli = join(dir, "node_modules", PI_PACKAGE, "dist", "bundle", "cli.js");
	if (existsSync(node) && existsSync(cli)) return { node, cli };
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
			{ stdio: ["ignore", "ignore", "pipe"], timeout: 300_000 },
		);
	} catch (error) {
		return { skipped: `could not install pi ${PI_VERSION}: ${String(error.message).split("\n")[0]}` };
	}
	return existsSync(node) && existsSync(cli) ? { node, cli } : { skipped: "the installed reference is incomplete" };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
	const reference = ensurePiReference();
	if ("skipped" in reference) console.log(`skipped: ${reference.skipped}`);
	else console.log(`TAU_PI_NODE=${reference.node}\nTAU_PI_CLI=${reference.cli}`);
}
