// Fails when a TypeScript project imports a workspace package it does not reference (directly or
// through its references). `tsc -b` builds independent projects in parallel, so a missing
// reference is a race: the import resolves only when the other package happened to be built first.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");

function readJson(file) {
	return JSON.parse(readFileSync(file, "utf8"));
}

function isFile(path) {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}

/** The workspace package a project directory belongs to: the nearest package.json above it. */
function owningPackage(projectDir) {
	for (let dir = projectDir; dir.startsWith(root) && dir !== root; dir = dirname(dir)) {
		const manifest = join(dir, "package.json");
		if (isFile(manifest)) return readJson(manifest).name;
	}
	return undefined;
}

function referencedDirs(projectDir) {
	const config = readJson(join(projectDir, "tsconfig.json"));
	return (config.references ?? []).map((ref) => resolve(projectDir, ref.path));
}

/** Packages a project may import: its own and every package reachable through its references. */
function reachablePackages(projectDir) {
	const seen = new Set();
	const packages = new Set([owningPackage(projectDir)]);
	const pending = referencedDirs(projectDir);
	while (pending.length > 0) {
		const dir = pending.pop();
		if (seen.has(dir)) continue;
		seen.add(dir);
		packages.add(owningPackage(dir));
		pending.push(...referencedDirs(dir));
	}
	return packages;
}

function listTsFiles(dir, out) {
	for (const name of readdirSync(dir)) {
		if (name === "node_modules" || name === "dist") continue;
		const full = join(dir, name);
		if (statSync(full).isDirectory()) listTsFiles(full, out);
		else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith(".d.ts")) out.push(full);
	}
}

/** Files matched by the project's `include` patterns (a static prefix plus `**` walks the folder). */
function includedFiles(projectDir) {
	const config = readJson(join(projectDir, "tsconfig.json"));
	const files = [];
	for (const pattern of config.include ?? []) {
		const wildcard = pattern.search(/[*?]/);
		if (wildcard === -1) {
			const file = resolve(projectDir, pattern);
			if (isFile(file)) files.push(file);
			continue;
		}
		// `resolve` drops a trailing slash: decide on the pattern whether the prefix is a folder.
		const prefix = pattern.slice(0, wildcard);
		const dir = prefix.endsWith("/") ? resolve(projectDir, prefix) : dirname(resolve(projectDir, prefix));
		try {
			listTsFiles(dir, files);
		} catch {
			// A pattern whose folder does not exist includes nothing.
		}
	}
	return [...new Set(files)];
}

const workspaceImport = /(?:from\s+|import\(\s*)["'](@tau\/[a-z-]+)(?:\/[^"']*)?["']/g;

const solution = readJson(join(root, "tsconfig.json"));
const problems = [];
for (const ref of solution.references) {
	const projectDir = resolve(root, ref.path);
	const allowed = reachablePackages(projectDir);
	for (const file of includedFiles(projectDir)) {
		const text = readFileSync(file, "utf8");
		for (const match of text.matchAll(workspaceImport)) {
			if (allowed.has(match[1])) continue;
			problems.push(
				`${relative(root, file)} imports ${match[1]}, but ${relative(root, projectDir)}/tsconfig.json does not reference it`,
			);
		}
	}
}

if (problems.length > 0) {
	console.error([...new Set(problems)].join("\n"));
	console.error(`${problems.length} import(s) of unreferenced workspace packages`);
	process.exit(1);
}
console.log(`project references: ${solution.references.length} projects reference every package they import`);
