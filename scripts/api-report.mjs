// The public API report: every name each package entry point exports, with its kind and whether it
// is documented (a doc comment on its declaration), marked internal (`@internal` in the doc comment
// of the export statement in the entry's index) or a Pi 1.6 name (the pi-exports conformance data).
// It reads sources only (no build, nothing runs), so it works the same in a test and from the shell:
//   npm run api-report            rewrite packages/*/api-report.md
//   node scripts/api-report.mjs --check   exit 1 when a report is out of date
// packages/coding-agent/test/api-report.test.ts fails on any difference, so a change of the public
// API shows up in review as a change of these files (AGENTS.md, "Public API").
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const packagesDir = join(root, "packages");
const piExportsFile = join(packagesDir, "coding-agent/test/conformance/pi-exports/pi-1.6-exports.json");

function isFile(path) {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}

/** Comments blanked out (same length, so offsets still point into the original text). */
function blankComments(text) {
	return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (comment) => comment.replace(/[^\n]/g, " "));
}

const sources = new Map();
function source(file) {
	let entry = sources.get(file);
	if (!entry) {
		const text = readFileSync(file, "utf8");
		entry = { text, code: blankComments(text) };
		sources.set(file, entry);
	}
	return entry;
}

function resolveRelative(fromFile, specifier) {
	const base = resolve(dirname(fromFile), specifier);
	return [base.replace(/\.js$/, ".ts"), `${base}.ts`, join(base, "index.ts")].find(isFile);
}

/**
 * The doc comment that ends right before `offset`, or undefined. Whitespace and line comments may
 * stand between (a `// biome-ignore` must touch the declaration; TypeScript still reads the doc).
 */
function docCommentBefore(text, offset) {
	const before = text.slice(0, offset).replace(/(?:\n[ \t]*\/\/[^\n]*)*\s*$/, "");
	if (!before.endsWith("*/")) return undefined;
	const start = before.lastIndexOf("/**");
	return start === -1 ? undefined : before.slice(start);
}

const DECLARATION =
	/(^|\n)[ \t]*export\s+(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(function\*?|class|const|let|var|interface|type|enum|namespace)\s+([A-Za-z0-9_$]+)/g;
const NAMED = /(^|\n)[ \t]*export\s+(type\s+)?\{([^}]*)\}\s*(?:from\s+["']([^"']+)["'])?\s*;?/g;
const STAR = /(^|\n)[ \t]*export\s+(type\s+)?\*\s+(?:as\s+([A-Za-z0-9_$]+)\s+)?from\s+["']([^"']+)["']\s*;?/g;
const IMPORT = /(^|\n)[ \t]*import\s+(type\s+)?\{([^}]*)\}\s*from\s+["']([^"']+)["']/g;

const KIND_OF = { "function*": "function", let: "variable", var: "variable" };

function specifierList(list) {
	return list
		.split(",")
		.map((part) => part.trim())
		.filter(Boolean)
		.map((part) => {
			const typeOnly = part.startsWith("type ");
			const [local, exported] = part.replace(/^type\s+/, "").split(/\s+as\s+/);
			return { local: local.trim(), exported: (exported ?? local).trim(), typeOnly };
		});
}

/**
 * Where a name a module exports is declared: `{ kind, documented }`, following re-exports and
 * imports between files of the same package. A name from another package is `re-export (pkg)`.
 */
function declarationOf(file, name, seen = new Set()) {
	const key = `${file}#${name}`;
	if (seen.has(key)) return { kind: "unknown", documented: false };
	seen.add(key);
	const { text, code } = source(file);
	for (const m of code.matchAll(DECLARATION)) {
		if (m[3] !== name) continue;
		const offset = m.index + m[1].length;
		return { kind: KIND_OF[m[2]] ?? m[2], documented: docCommentBefore(text, offset) !== undefined };
	}
	for (const m of code.matchAll(NAMED)) {
		for (const spec of specifierList(m[3])) {
			if (spec.exported !== name) continue;
			if (m[4]) return follow(file, m[4], spec.local, seen);
			return localBinding(file, spec.local, seen);
		}
	}
	for (const m of code.matchAll(STAR)) {
		if (m[3]) {
			if (m[3] === name)
				return { kind: "namespace", documented: docCommentBefore(text, m.index + m[1].length) !== undefined };
			continue;
		}
		if (!m[4].startsWith(".")) continue;
		const target = resolveRelative(file, m[4]);
		if (target && exportedNames(target).has(name)) return follow(file, m[4], name, seen);
	}
	return { kind: "unknown", documented: false };
}

function follow(file, specifier, name, seen) {
	if (!specifier.startsWith(".")) return { kind: `re-export (${specifier})`, documented: true };
	const target = resolveRelative(file, specifier);
	return target ? declarationOf(target, name, seen) : { kind: "unknown", documented: false };
}

/** `export { x }` of a name the file declares or imports. */
function localBinding(file, name, seen) {
	const { text, code } = source(file);
	for (const m of code.matchAll(IMPORT)) {
		for (const spec of specifierList(m[3])) if (spec.exported === name) return follow(file, m[4], spec.local, seen);
	}
	const local = new RegExp(
		`(^|\\n)[ \\t]*(?:declare\\s+)?(?:abstract\\s+)?(?:async\\s+)?(function\\*?|class|const|let|var|interface|type|enum)\\s+${name.replace(/\$/g, "\\$")}\\b`,
	).exec(code);
	if (!local) return { kind: "unknown", documented: false };
	return {
		kind: KIND_OF[local[2]] ?? local[2],
		documented: docCommentBefore(text, local.index + local[1].length) !== undefined,
	};
}

/** Every name a module exports (`default` left out), with whether its export statement says `@internal`. */
function exportedNames(file, seen = new Set()) {
	const names = new Map();
	if (seen.has(file)) return names;
	seen.add(file);
	const { text, code } = source(file);
	const internal = (offset) => /@internal\b/.test(docCommentBefore(text, offset) ?? "");
	for (const m of code.matchAll(DECLARATION)) {
		if (m[3] !== "default") names.set(m[3], { internal: internal(m.index + m[1].length) });
	}
	for (const m of code.matchAll(NAMED)) {
		const marked = internal(m.index + m[1].length);
		for (const spec of specifierList(m[3]))
			if (spec.exported !== "default") names.set(spec.exported, { internal: marked });
	}
	for (const m of code.matchAll(STAR)) {
		const marked = internal(m.index + m[1].length);
		if (m[3]) {
			names.set(m[3], { internal: marked });
			continue;
		}
		const target = m[4].startsWith(".") ? resolveRelative(file, m[4]) : undefined;
		if (!target) continue;
		for (const [name, info] of exportedNames(target, seen)) {
			if (!names.has(name)) names.set(name, { internal: marked || info.internal });
		}
	}
	return names;
}

function piNames() {
	const data = JSON.parse(readFileSync(piExportsFile, "utf8"));
	return new Map(data.modules.map((module) => [module.tau, new Set(Object.keys(module.exports))]));
}

/** Each package's entry modules: the specifiers of its `exports` map grouped by the source they load. */
function entryModules(packageDir) {
	const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
	const bySource = new Map();
	for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
		const dist = typeof target === "string" ? target : target.import;
		if (typeof dist !== "string") continue;
		const file = join(packageDir, dist.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));
		const specifier = `${manifest.name}${subpath === "." ? "" : subpath.slice(1)}`;
		const list = bySource.get(file) ?? [];
		list.push(specifier);
		bySource.set(file, list);
	}
	return { name: manifest.name, modules: [...bySource].map(([file, specifiers]) => ({ file, specifiers })) };
}

/** The report of one package as Markdown, and the names whose kind could not be read. */
export function packageReport(packageDir) {
	const { name, modules } = entryModules(packageDir);
	const pi = piNames();
	const unknown = [];
	const lines = [
		`# API report: ${name}`,
		"",
		"Generated by `npm run api-report` (scripts/api-report.mjs); `test/api-report.test.ts` of coding-agent",
		"fails when it differs from the sources. Status: `documented` (doc comment on the declaration),",
		"`internal` (marked `@internal` where the entry exports it: not a stable API), `undocumented`.",
		"`pi` marks a name Pi 1.6 exports from the same module.",
	];
	for (const module of modules) {
		const piModule = module.specifiers.map((specifier) => pi.get(specifier)).find(Boolean);
		lines.push("", `## ${module.specifiers.join(", ")}`, "", `Source: \`${relative(packageDir, module.file)}\``, "");
		const names = [...exportedNames(module.file)].sort(([a], [b]) => a.localeCompare(b));
		if (names.length === 0) lines.push("(no exports)");
		for (const [exported, { internal }] of names) {
			const { kind, documented } = declarationOf(module.file, exported);
			if (kind === "unknown") unknown.push(`${module.specifiers[0]}: ${exported}`);
			const status = internal ? "internal" : documented ? "documented" : "undocumented";
			lines.push(`- \`${exported}\` ${kind}, ${status}${piModule?.has(exported) ? ", pi" : ""}`);
		}
	}
	return { name, path: join(packageDir, "api-report.md"), text: `${lines.join("\n")}\n`, unknown };
}

/** The reports of every workspace package. */
export function allReports() {
	return readdirSync(packagesDir)
		.map((dir) => join(packagesDir, dir))
		.filter((dir) => isFile(join(dir, "package.json")))
		.map(packageReport);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
	const check = process.argv.includes("--check");
	let stale = 0;
	for (const report of allReports()) {
		for (const name of report.unknown) console.error(`api-report: cannot tell the kind of ${name}`);
		const current = isFile(report.path) ? readFileSync(report.path, "utf8") : "";
		if (current === report.text) continue;
		stale++;
		if (check) console.error(`${relative(root, report.path)} is out of date: run npm run api-report`);
		else {
			writeFileSync(report.path, report.text);
			console.log(`wrote ${relative(root, report.path)}`);
		}
	}
	if (check && stale > 0) process.exit(1);
}
