// Fails when source files import each other in a circle, or when a file of @tau/coding-agent imports
// from a higher layer than its own (docs/design/layers.md). Every import counts: `import type` and
// lazy `import()` still make one file depend on another, so a circle through them is still a circle.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const packagesDir = join(root, "packages");
const layersDoc = join(root, "docs/design/layers.md");
const layeredSrc = join(packagesDir, "coding-agent/src");

function listSources(dir, out = []) {
	for (const name of readdirSync(dir)) {
		const full = join(dir, name);
		if (statSync(full).isDirectory()) listSources(full, out);
		else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith(".d.ts")) out.push(full);
	}
	return out;
}

// Static imports and re-exports (type-only included), and `import("./x.js")` in code or type position.
const importPattern =
	/(?:^|\n)\s*(?:import|export)\s+[^;]*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;

function isFile(path) {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}

function isDirectory(path) {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

function resolveImport(fromFile, spec) {
	const base = resolve(dirname(fromFile), spec);
	return [base.replace(/\.js$/, ".ts"), base.replace(/\.js$/, ".tsx"), `${base}.ts`, join(base, "index.ts")].find(
		isFile,
	);
}

const graph = new Map();
for (const pkg of readdirSync(packagesDir)) {
	const src = join(packagesDir, pkg, "src");
	if (!isFile(join(packagesDir, pkg, "package.json"))) continue;
	if (!isDirectory(src)) continue;
	for (const file of listSources(src)) {
		const text = readFileSync(file, "utf8");
		const deps = [];
		for (const m of text.matchAll(importPattern)) {
			const target = resolveImport(file, m[1] ?? m[2]);
			if (target && target !== file) deps.push(target);
		}
		graph.set(file, deps);
	}
}

const problems = [];

// Circles: a depth-first search reports each back edge with the path that closes it.
const state = new Map(); // 1 = on stack, 2 = done
const stack = [];
function visit(node) {
	state.set(node, 1);
	stack.push(node);
	for (const dep of graph.get(node) ?? []) {
		const s = state.get(dep);
		if (s === 1) {
			const cycle = [...stack.slice(stack.indexOf(dep)), dep];
			problems.push(`import cycle: ${cycle.map((f) => relative(root, f)).join(" -> ")}`);
		} else if (s === undefined) visit(dep);
	}
	stack.pop();
	state.set(node, 2);
}
for (const node of graph.keys()) if (!state.has(node)) visit(node);

// Layers: the ```layers block of docs/design/layers.md, top line first.
const block = /```layers\n([\s\S]*?)```/.exec(readFileSync(layersDoc, "utf8"));
if (!block) {
	console.error(`${relative(root, layersDoc)} has no \`\`\`layers block`);
	process.exit(1);
}
const rows = block[1].split("\n").filter((line) => line.trim() !== "");
const levelOf = new Map(); // name -> level (0 = bottom)
rows.forEach((line, index) => {
	for (const name of line.trim().split(/\s+/)) levelOf.set(name, rows.length - 1 - index);
});
const names = [...levelOf.keys()].sort((a, b) => b.length - a.length);
function layerOf(file) {
	const path = relative(layeredSrc, file);
	return names.find((name) => path === name || path.startsWith(`${name}/`));
}
for (const name of names) {
	if (!isFile(join(layeredSrc, name)) && !isDirectory(join(layeredSrc, name))) {
		problems.push(`layer name "${name}" in ${relative(root, layersDoc)} is no file or folder of coding-agent/src`);
	}
}
let layeredEdges = 0;
for (const [file, deps] of graph) {
	if (!file.startsWith(`${layeredSrc}/`)) continue;
	const from = layerOf(file);
	if (from === undefined) {
		problems.push(`${relative(root, file)} is in no layer: place its folder in ${relative(root, layersDoc)}`);
		continue;
	}
	for (const dep of deps) {
		const to = layerOf(dep);
		if (to === undefined) continue; // reported as a file of its own
		layeredEdges++;
		if (levelOf.get(to) > levelOf.get(from)) {
			problems.push(`upward import (${from} -> ${to}): ${relative(root, file)} imports ${relative(root, dep)}`);
		}
	}
}

if (problems.length > 0) {
	for (const problem of problems) console.error(problem);
	process.exit(1);
}
console.log(
	`no import cycles (${graph.size} files, type-only and lazy imports included); ` +
		`${layeredEdges} coding-agent imports respect the ${rows.length} layers of ${relative(root, layersDoc)}`,
);
