import { readFileSync } from "node:fs";

const meta = JSON.parse(
	readFileSync("/work/wt/headless-speed/packages/coding-agent/dist/bundle/metafile.json", "utf8"),
);
const loaded = readFileSync(process.argv[2], "utf8")
	.split("\n")
	.filter((u) => u.includes("/dist/bundle/"))
	.map((u) => u.replace(/.*\/work\/wt\/headless-speed\//, ""));
const byInput = new Map();
for (const [out, o] of Object.entries(meta.outputs)) {
	if (!loaded.includes(out)) continue;
	for (const [inp, { bytesInOutput }] of Object.entries(o.inputs)) {
		const g = inp
			.replace(/^node_modules\/((@[^/]+\/)?[^/]+).*/, "$1")
			.replace(/^packages\/([^/]+)\/dist\/([^/]+)\/?([^/]*).*/, "$1/$2/$3");
		byInput.set(g, (byInput.get(g) ?? 0) + bytesInOutput);
	}
}
let total = 0;
for (const v of byInput.values()) total += v;
console.log("total", total);
console.log(
	[...byInput]
		.sort((a, b) => b[1] - a[1])
		.slice(0, Number(process.argv[3] ?? 40))
		.map(([k, v]) => `${String(v).padStart(8)} ${k}`)
		.join("\n"),
);
