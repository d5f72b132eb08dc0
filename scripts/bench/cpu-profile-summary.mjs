// Summarizes a V8 CPU profile (`node --cpu-prof`): total sampled time, self time by package or
// source folder, self time by function, and the functions with the most inclusive time.
// Usage: node scripts/bench/cpu-profile-summary.mjs <file.cpuprofile> [rows=25] [--from=<ms>] [--to=<ms>]
//   --from: only samples taken at least that many ms after the profile started (skips start-up).
//   --to: only samples taken before that many ms after the profile started (e.g. up to a first frame).
// For readable names profile an unminified bundle: node scripts/bundle-cli.mjs --no-minify.
import { readFileSync } from "node:fs";

const msOption = (name, fallback) => {
	const arg = process.argv.find((candidate) => candidate.startsWith(`--${name}=`));
	return arg ? Number(arg.slice(name.length + 3)) * 1000 : fallback;
};
const fromUs = msOption("from", 0);
const toUs = msOption("to", Number.POSITIVE_INFINITY);
const [file, rowsArg] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
if (!file) {
	console.error("usage: cpu-profile-summary.mjs <file.cpuprofile> [rows]");
	process.exit(2);
}
const rows = Number(rowsArg ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8"));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
let total = 0;
let at = profile.startTime;
profile.samples.forEach((id, i) => {
	const delta = profile.timeDeltas[i] ?? 0;
	at += delta;
	if (at - profile.startTime < fromUs || at - profile.startTime >= toUs) return;
	total += delta;
	self.set(id, (self.get(id) ?? 0) + delta);
});

const where = (url) => {
	if (!url) return "(vm)";
	const dependency = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
	if (dependency && !url.includes("/dist/bundle/")) return dependency[1];
	const source = url.match(/packages\/([^/]+)\/(?:src|dist)\/(.*)/);
	if (source) return `${source[1]}/${source[2].split("/").slice(0, 2).join("/")}`;
	return url.startsWith("node:") ? `node:${url.slice(5).split("/")[0]}` : url;
};
const nameOf = ({ callFrame: frame }) =>
	`${frame.functionName || "(anonymous)"} ${frame.url.split("/").slice(-2).join("/")}:${frame.lineNumber}`;

const byGroup = new Map();
const byFunction = new Map();
for (const [id, time] of self) {
	const node = nodes.get(id);
	const group = node.callFrame.url ? where(node.callFrame.url) : node.callFrame.functionName;
	byGroup.set(group, (byGroup.get(group) ?? 0) + time);
	byFunction.set(nameOf(node), (byFunction.get(nameOf(node)) ?? 0) + time);
}

// Inclusive time, each function counted once per stack (recursion does not double it).
const inclusive = new Map();
const subtree = new Map();
const sizeOf = (node) => {
	let time = self.get(node.id) ?? 0;
	for (const child of node.children ?? []) time += sizeOf(nodes.get(child));
	subtree.set(node.id, time);
	return time;
};
const root = profile.nodes[0];
sizeOf(root);
const walk = (node, open) => {
	const name = nameOf(node);
	const first = !open.has(name);
	if (first) {
		inclusive.set(name, (inclusive.get(name) ?? 0) + subtree.get(node.id));
		open.add(name);
	}
	for (const child of node.children ?? []) walk(nodes.get(child), open);
	if (first) open.delete(name);
};
walk(root, new Set());
inclusive.delete(nameOf(root));

const top = (map) =>
	[...map]
		.sort((a, b) => b[1] - a[1])
		.slice(0, rows)
		.map(([name, time]) => `${(time / 1000).toFixed(1).padStart(9)} ms  ${name}`)
		.join("\n");
console.log(`sampled ${(total / 1000).toFixed(1)} ms in ${file}`);
console.log(`\nself time by package or folder\n${top(byGroup)}`);
console.log(`\nself time by function\n${top(byFunction)}`);
console.log(
	`\ninclusive time (tau's own code)\n${top(new Map([...inclusive].filter(([name]) => /chunks\/|dist\/|src\//.test(name))))}`,
);
