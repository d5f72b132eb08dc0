// Writes the runtime export names and kinds of the published pi 1.6 packages to
// packages/coding-agent/test/conformance/pi-exports/pi-1.6-exports.json, the data behind the
// export-parity test (docs/pi-compatibility.md). Run it again only when the pi reference changes:
//   node scripts/pi-api/extract-pi-exports.mjs
// It imports each pi module with the Node 22 the reference installs (pi needs it) and classifies
// every export as class, function, object or constant.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { ensurePiReference } from "../pi-reference.mjs";

/** Each pi module and the tau module that answers to it. */
export const MODULE_PAIRS = [
	{ pi: "@earendil-works/pi-coding-agent", tau: "@tau/coding-agent" },
	{ pi: "@earendil-works/pi-ai", tau: "@tau/ai" },
	{ pi: "@earendil-works/pi-ai/compat", tau: "@tau/ai/compat" },
	{ pi: "@earendil-works/pi-tui", tau: "@tau/tui" },
	{ pi: "@earendil-works/pi-agent-core", tau: "@tau/agent" },
];

const classify = `
const kind = (value) => {
	if (typeof value === "function") return /^class[\\s{]/.test(Function.prototype.toString.call(value)) ? "class" : "function";
	if (typeof value === "object" && value !== null) return "object";
	return "constant";
};
const specifiers = JSON.parse(process.argv[1]);
const out = {};
for (const specifier of specifiers) {
	const namespace = await import(specifier);
	out[specifier] = Object.fromEntries(Object.keys(namespace).sort().map((name) => [name, kind(namespace[name])]));
}
process.stdout.write(JSON.stringify(out));
`;

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
	const reference = ensurePiReference();
	if ("skipped" in reference) throw new Error(`pi reference unavailable: ${reference.skipped}`);
	const cwd = resolve(reference.cli, "../../../../..");
	const json = execFileSync(
		reference.node,
		["--input-type=module", "-e", classify, JSON.stringify(MODULE_PAIRS.map((pair) => pair.pi))],
		{ cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
	);
	const exports = JSON.parse(json);
	const data = {
		source: "runtime exports of the published pi 1.6.0 packages, read by scripts/pi-api/extract-pi-exports.mjs",
		modules: MODULE_PAIRS.map((pair) => ({ ...pair, exports: exports[pair.pi] })),
	};
	const target = resolve(
		import.meta.dirname,
		"../../packages/coding-agent/test/conformance/pi-exports/pi-1.6-exports.json",
	);
	writeFileSync(target, `${JSON.stringify(data, null, "\t")}\n`);
	for (const module of data.modules) console.log(`${module.pi}: ${Object.keys(module.exports).length} names`);
}
