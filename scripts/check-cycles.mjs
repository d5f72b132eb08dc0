// Fails when source files import each other in a cycle. Runtime imports only: `import type`
// is erased by the compiler and cannot create a load-order cycle.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const packagesDir = join(root, "packages");

function listSources(dir, out = []) {
	for (const name of readdirSync(dir)) {
		const full = join(dir, name);
		if (statSync(full).isDirectory()) listSources(full, out);
		else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith(".d.ts")) out.push(full);
	}
	return out;
}

const importPattern =
	/(?:^|\n)\s*(import|export)\s+(type\s+)?[^;]*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;

function resolveImport(fromFile, spec) {
	const base = resolve(dirname(fromFile), spec);
	const candidates = [
		base.replace(/\.js$/, ".ts"),
		base.replace(/\.js$/, ".tsx"),
		`${base}.ts`,
		join(base, "index.ts"),
	];
	return candidates.find((c) => {
		try {
			return statSync(c).isFile();
		} catch {
			return false;
		}
	});
}

const graph = new Map();
for (const pkg of readdirSync(packagesDir)) {
	const src = join(packagesDir, pkg, "src");
	try {
		statSync(src);
	} catch {
		continue;
	}
	for (const file of listSources(src)) {
		const text = readFileSync(file, "utf8");
		const deps = [];
		for (const m of text.matchAll(importPattern)) {
			if (m[2]) continue; // type-only import
			// Lazy `import()` is a deliberate cut in the load graph; it cannot deadlock module evaluation.
			if (m[4]) continue;
			const target = resolveImport(file, m[3]);
			if (target) deps.push(target);
		}
		graph.set(file, deps);
	}
}

const state = new Map(); // 1 = on stack, 2 = done
const stack = [];
const cycles = [];
function visit(node) {
	state.set(node, 1);
	stack.push(node);
	for (const dep of graph.get(node) ?? []) {
		const s = state.get(dep);
		if (s === 1) cycles.push([...stack.slice(stack.indexOf(dep)), dep]);
		else if (s === undefined) visit(dep);
	}
	stack.pop();
	state.set(node, 2);
}
for (const node of graph.keys()) if (!state.has(node)) visit(node);

if (cycles.length > 0) {
	for (const cycle of cycles) console.error(`import cycle: ${cycle.map((f) => relative(root, f)).join(" -> ")}`);
	process.exit(1);
}
console.log(`no import cycles (${graph.size} files)`);
