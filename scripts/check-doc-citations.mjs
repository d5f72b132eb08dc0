// Fails when a source comment or test title cites a document that is not in the repository: a
// `docs/…`, `packages/…` or root `.md` path that does not exist, a `#section` that is not a heading
// of that page, or a numbered section (the section sign) of a document outside the repository.
// It also checks the relative links of the repository's own Markdown (README, ARCHITECTURE, docs/).
// Design notes live in docs/design/ (docs/design/README.md says how to cite them).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SOURCE_FILE = /\.(ts|tsx|mts|cts|mjs|js)$/;
const SKIPPED_DIRS = new Set(["node_modules", "dist", "bench-results", ".git", "fixtures"]);
/** A repository path ending in `.md`, optionally followed by `#anchor`. */
const CITATION =
	/(?<![\w./-])((?:docs|packages)\/[\w./-]*?\.md|(?:ARCHITECTURE|AGENTS|CHANGELOG|README)\.md)(#[\w-]+)?/g;
/** A numbered section of a document (the section sign before a number) or the old specification's folder. */
const OUTSIDE = /(?:[\w-]+\.md )?§\s?\d|shared\/spec/g;

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading) {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, "")
		.replace(/\s/g, "-");
}

/** Every anchor a Markdown page offers (repeated headings get `-1`, `-2`, … as on GitHub). */
export function pageAnchors(markdown) {
	const anchors = new Set();
	const seen = new Map();
	let fenced = false;
	for (const line of markdown.split("\n")) {
		if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
		const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!heading) continue;
		const slug = headingSlug(heading[1]);
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		anchors.add(count === 0 ? slug : `${slug}-${count}`);
	}
	return anchors;
}

const TEST_TITLE = /\b(?:describe|it|test)(?:\.\w+)*\(\s*(["'`])(.*?)\1/g;

/**
 * The parts of a source line that speak to readers: its comment (a `//` comment, or a line of a block
 * comment) and the titles of tests. Code and other strings (paths a test builds) are left alone.
 */
export function proseOf(line) {
	const trimmed = line.trimStart();
	if (/^(\/\*|\*)/.test(trimmed)) return trimmed;
	const parts = [...line.matchAll(TEST_TITLE)].map((match) => match[2]);
	const comment = /(?:^|[\s;,({])\/\/(.*)$/.exec(line);
	if (comment) parts.push(comment[1]);
	return parts.join("\n");
}

function listSources(dir, out) {
	for (const name of readdirSync(dir)) {
		if (SKIPPED_DIRS.has(name)) continue;
		const full = join(dir, name);
		if (statSync(full).isDirectory()) listSources(full, out);
		else if (SOURCE_FILE.test(name) && !name.endsWith(".d.ts")) out.push(full);
	}
	return out;
}

/** The source files whose citations are checked: every package's files and the repository scripts. */
function sourceFiles(root) {
	const files = [];
	for (const dir of ["packages", "scripts", "examples"]) {
		if (existsSync(join(root, dir))) listSources(join(root, dir), files);
	}
	return files;
}

/**
 * The broken citations under `root`, as `file:line: problem` strings. RFC sections (`RFC 6749 §5.2`)
 * are standards, not repository documents, and are allowed.
 */
export function findBrokenCitations(root) {
	const anchorsByPage = new Map();
	const anchorsOf = (page) => {
		if (!anchorsByPage.has(page)) anchorsByPage.set(page, pageAnchors(readFileSync(join(root, page), "utf8")));
		return anchorsByPage.get(page);
	};
	const problems = [];
	for (const file of sourceFiles(root)) {
		const lines = readFileSync(file, "utf8").split("\n");
		lines.forEach((source, index) => {
			const line = proseOf(source);
			const where = `${relative(root, file)}:${index + 1}`;
			for (const match of line.matchAll(OUTSIDE)) {
				if (/RFC\s?\d+\s*$/.test(line.slice(0, match.index))) continue;
				problems.push(`${where}: cites "${match[0]}", a document outside the repository`);
			}
			for (const [, page, anchor] of line.matchAll(CITATION)) {
				if (!existsSync(join(root, page)) || !statSync(join(root, page)).isFile()) {
					problems.push(`${where}: cites ${page}, which does not exist`);
				} else if (anchor && !anchorsOf(page).has(anchor.slice(1))) {
					problems.push(`${where}: cites ${page}${anchor}, which is not a heading of that page`);
				}
			}
		});
	}
	return [...new Set(problems)];
}

/** The Markdown pages readers start from: root pages, docs/ (design notes included) and package READMEs. */
function markdownPages(root) {
	const pages = ["README.md", "ARCHITECTURE.md", "AGENTS.md"].filter((page) => existsSync(join(root, page)));
	const visit = (dir) => {
		for (const name of readdirSync(join(root, dir))) {
			const path = join(dir, name);
			if (statSync(join(root, path)).isDirectory()) visit(path);
			else if (name.endsWith(".md")) pages.push(path);
		}
	};
	if (existsSync(join(root, "docs"))) visit("docs");
	if (existsSync(join(root, "packages"))) {
		for (const name of readdirSync(join(root, "packages"))) {
			if (existsSync(join(root, "packages", name, "README.md"))) pages.push(join("packages", name, "README.md"));
		}
	}
	return pages;
}

/** Relative links of the repository's Markdown pages whose file or `#section` does not exist. */
export function findBrokenLinks(root) {
	const problems = [];
	for (const page of markdownPages(root)) {
		const text = readFileSync(join(root, page), "utf8");
		for (const [, target, anchor] of text.matchAll(/\]\(([^)#\s]*)(#[^)\s]+)?\)/g)) {
			if (/^[a-z]+:/i.test(target)) continue;
			const file = target ? join(dirname(join(root, page)), target) : join(root, page);
			if (!existsSync(file)) problems.push(`${page}: links to ${target}, which does not exist`);
			else if (anchor && statSync(file).isFile() && !pageAnchors(readFileSync(file, "utf8")).has(anchor.slice(1))) {
				problems.push(`${page}: links to ${target}${anchor}, which is not a heading of that page`);
			}
		}
	}
	return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const root = resolve(import.meta.dirname, "..");
	const problems = [...findBrokenCitations(root), ...findBrokenLinks(root)];
	for (const problem of problems) console.error(problem);
	if (problems.length > 0) {
		console.error(`${problems.length} citation(s) or link(s) to documents or sections that do not exist`);
		process.exit(1);
	}
	console.log("doc citations: every cited or linked page and section exists");
}
