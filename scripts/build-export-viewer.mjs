// Builds the HTML export viewer (docs/export.md): bundles the page script
// (packages/coding-agent/viewer/src/main.ts) and its styles with esbuild, inlines both into
// viewer/template.html with a Content-Security-Policy that allows exactly those two inline blocks
// (by SHA-256) and data: images, and writes packages/coding-agent/dist/export-viewer/viewer.html.
// Usage: node scripts/build-export-viewer.mjs [--if-stale]
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = resolve(import.meta.dirname, "..");
const viewerDir = join(root, "packages/coding-agent/viewer");
export const VIEWER_OUTPUT = join(root, "packages/coding-agent/dist/export-viewer/viewer.html");
/** Sources outside viewer/ that the page bundles (the TUI's syntax highlighter, tool summaries). */
const SHARED_SOURCES = [
	join(root, "packages/coding-agent/src/modes/interactive/theme"),
	join(root, "packages/coding-agent/src/modes/interactive/components"),
];

function newestSource() {
	let newest = 0;
	const visit = (dir) => {
		for (const item of readdirSync(dir, { withFileTypes: true })) {
			const path = join(dir, item.name);
			if (item.isDirectory()) visit(path);
			else newest = Math.max(newest, statSync(path).mtimeMs);
		}
	};
	for (const dir of [viewerDir, ...SHARED_SOURCES]) visit(dir);
	return Math.max(newest, statSync(import.meta.filename).mtimeMs);
}

async function bundle(entry, loader) {
	const result = await build({
		absWorkingDir: root,
		entryPoints: [entry],
		bundle: true,
		write: false,
		minify: true,
		format: loader === "css" ? undefined : "iife",
		platform: "browser",
		// Browsers of the last few years (ES2022, nesting-free CSS).
		target: ["es2022", "chrome100", "firefox100", "safari15"],
		legalComments: "none",
		charset: "utf8",
		logLevel: "warning",
	});
	return result.outputFiles[0].text.trim();
}

const sha256 = (text) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/**
 * An inline block must not end its own element early or put the HTML parser in its "escaped"
 * script states: no `</script` (`</style`) or `<script`, and `<!--` (which the bundled Markdown
 * lexer's patterns contain) is rewritten as `\x3C!--`, the same character in a string or pattern.
 */
function inlineSafe(name, text, closer) {
	const lower = text.toLowerCase();
	if (lower.includes(closer) || lower.includes("<script")) throw new Error(`${name} contains ${closer} or <script`);
	return text.replace(/(\\?)<!--/g, (_match, backslash) => {
		if (backslash) throw new Error(`${name} contains an escaped <!--`);
		return "\\x3C!--";
	});
}

export async function buildExportViewer({ ifStale = false } = {}) {
	if (ifStale && existsSync(VIEWER_OUTPUT) && statSync(VIEWER_OUTPUT).mtimeMs >= newestSource()) return false;
	const [rawScript, rawStyles] = await Promise.all([
		bundle(join(viewerDir, "src/main.ts"), "js"),
		bundle(join(viewerDir, "styles/viewer.css"), "css"),
	]);
	const script = inlineSafe("viewer script", rawScript, "</script");
	const styles = inlineSafe("viewer styles", rawStyles, "</style");
	const policy = [
		"default-src 'none'",
		`script-src ${sha256(script)}`,
		`style-src ${sha256(styles)}`,
		"img-src data:",
		"base-uri 'none'",
		"form-action 'none'",
	].join("; ");
	const template = readFileSync(join(viewerDir, "template.html"), "utf8");
	const slots = { "{{CSP}}": policy, "{{STYLES}}": styles, "{{SCRIPT}}": script };
	const html = template.replace(/\{\{(CSP|STYLES|SCRIPT)\}\}/g, (slot) => slots[slot]);
	mkdirSync(dirname(VIEWER_OUTPUT), { recursive: true });
	writeFileSync(VIEWER_OUTPUT, html);
	return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
	await buildExportViewer({ ifStale: process.argv.includes("--if-stale") });
}
