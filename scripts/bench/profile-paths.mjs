// CPU profiles of the headless paths (issue 22), summarized into packages/coding-agent/bench/profiles/
// <label>/<path>.txt: `--version`, `-p "hi"` on Node 22 and on this Node, 20 `read` calls, a 200k-token
// stream and a 500 KB `write` argument in JSON mode (packages/coding-agent/bench/profile-paths.ts).
// Usage: node scripts/bench/profile-paths.mjs [options]
//   --cli <path>          the CLI to profile (default: this checkout's dist/bundle/cli.js), on pi's Node 22
//   --label <name>        its summaries' folder (default: after)
//   --baseline <ref>      also tau at that git ref, built into bench-results/baseline-<sha>/ as the
//                         compare benchmark builds it; --baseline-label <name> (default: before)
//   --unminified          rebundle each with --no-minify first (readable names), minified again after
//   --keep-raw <dir>      keep the .cpuprofile files there (default: a temp folder, removed)
//   --interval <us>       --cpu-prof-interval (default: 200); --rows <n> per summary table (default: 30)
//   --paths <a,b>         only these (version, p-hi-node22, p-hi-node20, tool-loop, stream-200k, write-500kb)
import { join } from "node:path";
import { parseArgs } from "node:util";
import { benchJiti, root } from "./jiti.mjs";

const { values } = parseArgs({
	options: {
		cli: { type: "string" },
		label: { type: "string", default: "after" },
		baseline: { type: "string" },
		"baseline-label": { type: "string", default: "before" },
		unminified: { type: "boolean", default: false },
		"keep-raw": { type: "string" },
		interval: { type: "string", default: "200" },
		rows: { type: "string", default: "30" },
		paths: { type: "string" },
	},
});
const { profilePaths } = await benchJiti().import(join(root, "packages/coding-agent/bench/profile-paths.ts"));
await profilePaths({
	cli: values.cli,
	label: values.label,
	baseline: values.baseline ? { ref: values.baseline, label: values["baseline-label"] } : undefined,
	unminified: values.unminified,
	keepRaw: values["keep-raw"],
	intervalUs: Number(values.interval),
	rows: Number(values.rows),
	only: values.paths?.split(","),
});
