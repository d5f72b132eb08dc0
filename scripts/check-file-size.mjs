// Fails when a source file of a package (packages/*/src) is longer than 600 lines: past that a file
// holds more than one responsibility (AGENTS.md, "Conventions"). The allow-list below names the
// exceptions, each with its reason; an entry that is no longer needed fails too, so the list only
// shrinks.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const LIMIT = 600;
const root = resolve(import.meta.dirname, "..");

// path -> reason; empty: every source file is within the limit.
const ALLOWED = new Map();

function sources(dir, out = []) {
	for (const name of readdirSync(dir)) {
		const full = join(dir, name);
		if (statSync(full).isDirectory()) sources(full, out);
		else if (/\.(ts|tsx|mts|mjs|js)$/.test(name) && !name.endsWith(".d.ts")) out.push(full);
	}
	return out;
}

const problems = [];
const packages = join(root, "packages");
let count = 0;
for (const pkg of readdirSync(packages)) {
	const src = join(packages, pkg, "src");
	if (!statSync(join(packages, pkg)).isDirectory()) continue;
	let files;
	try {
		files = sources(src);
	} catch {
		continue;
	}
	for (const file of files) {
		count++;
		const path = relative(root, file);
		const lines = readFileSync(file, "utf8").split("\n").length - 1;
		if (lines > LIMIT && !ALLOWED.has(path))
			problems.push(`${path}: ${lines} lines (limit ${LIMIT}): split it by responsibility`);
		if (lines <= LIMIT && ALLOWED.has(path))
			problems.push(`${path}: ${lines} lines now; remove it from the allow-list in scripts/check-file-size.mjs`);
	}
}
for (const path of ALLOWED.keys()) {
	try {
		statSync(join(root, path));
	} catch {
		problems.push(`${path} is gone; remove it from the allow-list in scripts/check-file-size.mjs`);
	}
}
if (problems.length > 0) {
	for (const problem of problems) console.error(problem);
	process.exit(1);
}
console.log(`every source file is at most ${LIMIT} lines (${count} files; ${ALLOWED.size} allowed exceptions)`);
