// Bundles the compiled CLI (packages/coding-agent/dist/cli.js, built by `tsc -b`) into one minified
// entry plus lazily loaded chunks under packages/coding-agent/dist/bundle/ (docs/cli.md, "Startup").
// Every `await import()` in the sources becomes its own chunk, so a mode loads only what it uses,
// and the start parses a few files instead of hundreds of modules; a second pass
// (scripts/bundle-chunk-groups.mjs) merges the chunks a headless run always loads together.
// Usage: node scripts/bundle-cli.mjs [--if-stale] [--no-minify]
//   --if-stale: skip when the bundle is newer than dist; --no-minify: readable names in CPU profiles.
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { buildExportViewer } from "./build-export-viewer.mjs";
import { mergeChunkGroups } from "./bundle-chunk-groups.mjs";

const root = resolve(import.meta.dirname, "..");
const packageDir = join(root, "packages/coding-agent");
const entry = join(packageDir, "dist/cli.js");
const outdir = join(packageDir, "dist/bundle");
/** esbuild's output, before the chunk groups are merged into `outdir`. */
const stageDir = join(packageDir, "dist/bundle-stage");
/** The model catalog files, read at run time per provider: the bundle carries a copy next to itself. */
const catalogDir = join(root, "packages/ai/catalog/providers");

/**
 * Left to Node's resolver at run time: jiti loads its own transpiler files; codemode starts its worker
 * from a file next to its own module. (TypeBox is bundled into a lazily loaded chunk; its schemas are
 * plain objects, so a validator from that copy checks schemas made with any other copy.)
 */
const EXTERNAL = ["jiti", "@tau/codemode", "@tau/codemode/*"];
/** Bundled CommonJS dependencies (proper-lockfile, ...) call `require` for Node's built-in modules. */
const REQUIRE_BANNER =
	'import{createRequire as __tauRequire}from"node:module";const require=__tauRequire(import.meta.url);';

/**
 * The chunk groups (scripts/bundle-chunk-groups.mjs), by the source entries whose static imports they
 * hold, each less what an earlier group took. `dispatch`: what every run loads (option parsing, the
 * subcommand dispatch, `--version`); `start`: what every session start loads (the startup, the model
 * runtime and provider list, the built-in extensions, the print and JSON modes); then the Anthropic
 * SDK, loaded with the first request to an Anthropic-protocol model, and TypeBox's validators, loaded
 * for the first tool call.
 */
const CHUNK_GROUPS = [
	{
		name: "dispatch",
		entries: [
			"packages/coding-agent/dist/main.js",
			"packages/coding-agent/dist/core/extensions/loader/host-modules.js",
		],
	},
	{
		name: "start",
		entries: [
			"packages/coding-agent/dist/startup/run-cli.js",
			"packages/coding-agent/dist/config/model-runtime/create-options.js",
			"packages/ai/dist/providers/builtin/all.js",
			"packages/coding-agent/dist/builtin/codemode/index.js",
			"packages/coding-agent/dist/builtin/tool-search/index.js",
			"packages/coding-agent/dist/builtin/mcp/mcp-extension.js",
			"packages/coding-agent/dist/modes/print/print-mode.js",
			"packages/coding-agent/dist/modes/json/json-mode.js",
		],
	},
	{ name: "anthropic", entries: ["packages/ai/dist/api/anthropic-messages/index.js"] },
	{
		name: "typebox",
		entries: ["node_modules/typebox/build/compile/index.mjs", "node_modules/typebox/build/value/index.mjs"],
	},
];
/** The entry switches the compile cache on before it imports anything else: it stays a file of its own. */
const KEEP_SEPARATE = ["packages/coding-agent/dist/cli.js"];

/** Newest modification time of the compiled JavaScript and the catalog files the bundle is made from. */
function newestInput() {
	let newest = 0;
	const visit = (dir, extension) => {
		for (const item of readdirSync(dir, { withFileTypes: true })) {
			if (item.name === "bundle" || item.name === "bundle-stage") continue;
			const path = join(dir, item.name);
			if (item.isDirectory()) visit(path, extension);
			else if (item.name.endsWith(extension)) newest = Math.max(newest, statSync(path).mtimeMs);
		}
	};
	for (const pkg of ["ai", "agent", "tui", "mcp", "coding-agent"]) visit(join(root, "packages", pkg, "dist"), ".js");
	visit(catalogDir, ".json");
	return newest;
}

if (!existsSync(entry)) {
	console.error(`bundle-cli: ${entry} is missing; run tsc -b first`);
	process.exit(1);
}
// The HTML export viewer ships next to the bundle (dist/export-viewer/), built with its own staleness check.
await buildExportViewer({ ifStale: process.argv.includes("--if-stale") });

const bundled = join(outdir, "cli.js");
if (process.argv.includes("--if-stale") && existsSync(bundled) && statSync(bundled).mtimeMs >= newestInput()) {
	process.exit(0);
}

const minify = !process.argv.includes("--no-minify");
rmSync(stageDir, { recursive: true, force: true });
const { metafile } = await build({
	absWorkingDir: root,
	entryPoints: { cli: entry },
	outdir: stageDir,
	bundle: true,
	splitting: true,
	format: "esm",
	platform: "node",
	target: "node20.19",
	minify,
	// Stack traces map back to the sources with `node --enable-source-maps` (the second pass composes the maps).
	sourcemap: "linked",
	chunkNames: "chunks/[name]-[hash]",
	// `.mjs` says "ES module" by itself: for a `.js` file Node looks for the nearest package.json at
	// every import it resolves, and misses three directories (chunks/, bundle/, dist/) each time,
	// about 1,100 failed file opens on a `-p` start. The second pass names the entry cli.js.
	outExtension: { ".js": ".mjs" },
	external: EXTERNAL,
	// Code that must know it runs from the bundle (its modules are chunks, not files a require can
	// load) tests this constant.
	define: { __TAU_BUNDLED__: "true" },
	banner: { js: REQUIRE_BANNER },
	// Collected into one LEGAL.txt below: the second pass renames every chunk a comment could point to.
	legalComments: "external",
	logLevel: "warning",
	metafile: true,
});

rmSync(outdir, { recursive: true, force: true });
const merged = await mergeChunkGroups({
	root,
	stageDir,
	entry: "cli.mjs",
	outdir,
	metafile,
	groups: CHUNK_GROUPS,
	keepSeparate: KEEP_SEPARATE,
	external: EXTERNAL.filter((pattern) => !pattern.endsWith("/*")),
	minify,
	banner: REQUIRE_BANNER,
});

const legal = [];
const collectLegal = (dir) => {
	for (const item of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, item.name);
		if (item.isDirectory()) collectLegal(path);
		else if (item.name.endsWith(".LEGAL.txt")) legal.push(readFileSync(path, "utf8").trim());
	}
};
collectLegal(stageDir);
writeFileSync(join(outdir, "LEGAL.txt"), `${legal.join("\n\n")}\n`);
rmSync(stageDir, { recursive: true, force: true });
// The package's `bin`, run directly.
chmodSync(join(outdir, "cli.js"), 0o755);

// The catalog reader looks for the nearest catalog/providers/ above its own file (a chunk of this bundle).
cpSync(catalogDir, join(outdir, "catalog/providers"), { recursive: true });

// esbuild's record of which source modules (and how many of their bytes) each output file holds, so
// tests and the startup benchmark can tell what a run loaded from the chunk files it opened.
writeFileSync(join(outdir, "metafile.json"), JSON.stringify(merged));
