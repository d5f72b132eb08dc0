// Bundles the compiled CLI (packages/coding-agent/dist/cli.js, built by `tsc -b`) into one minified
// entry plus lazily loaded chunks under packages/coding-agent/dist/bundle/ (docs/cli.md, "Startup").
// Every `await import()` in the sources becomes its own chunk, so a mode loads only what it uses,
// and the start parses a few files instead of hundreds of modules.
// Usage: node scripts/bundle-cli.mjs [--if-stale] [--no-minify]
//   --if-stale: skip when the bundle is newer than dist; --no-minify: readable names in CPU profiles.
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { buildExportViewer } from "./build-export-viewer.mjs";

const root = resolve(import.meta.dirname, "..");
const packageDir = join(root, "packages/coding-agent");
const entry = join(packageDir, "dist/cli.js");
const outdir = join(packageDir, "dist/bundle");
/** The model catalog files, read at run time per provider: the bundle carries a copy next to itself. */
const catalogDir = join(root, "packages/ai/catalog/providers");

/**
 * Left to Node's resolver at run time: jiti loads its own transpiler files; codemode starts its worker
 * from a file next to its own module. (TypeBox is bundled into a lazily loaded chunk; its schemas are
 * plain objects, so a validator from that copy checks schemas made with any other copy.)
 */
const EXTERNAL = ["jiti", "@tau/codemode", "@tau/codemode/*"];

/** Newest modification time of the compiled JavaScript and the catalog files the bundle is made from. */
function newestInput() {
	let newest = 0;
	const visit = (dir, extension) => {
		for (const item of readdirSync(dir, { withFileTypes: true })) {
			if (item.name === "bundle") continue;
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

rmSync(outdir, { recursive: true, force: true });
const { metafile } = await build({
	absWorkingDir: root,
	entryPoints: { cli: entry },
	outdir,
	bundle: true,
	splitting: true,
	format: "esm",
	platform: "node",
	target: "node20.19",
	minify: !process.argv.includes("--no-minify"),
	// Stack traces map back to the sources with `node --enable-source-maps`.
	sourcemap: "linked",
	chunkNames: "chunks/[name]-[hash]",
	// `.mjs` says "ES module" by itself: for a `.js` file Node looks for the nearest package.json at
	// every import it resolves, and misses three directories (chunks/, bundle/, dist/) each time,
	// about 1,100 failed file opens on a `-p` start. The entry is renamed back to cli.js below.
	outExtension: { ".js": ".mjs" },
	external: EXTERNAL,
	// Code that must know it runs from the bundle (its modules are chunks, not files a require can
	// load) tests this constant.
	define: { __TAU_BUNDLED__: "true" },
	// Bundled CommonJS dependencies (proper-lockfile, ...) call `require` for Node's built-in modules.
	banner: {
		js: 'import{createRequire as __tauRequire}from"node:module";const require=__tauRequire(import.meta.url);',
	},
	legalComments: "linked",
	logLevel: "warning",
	metafile: true,
});

// The entry keeps the name the package's `bin` and the docs give; its own extension does not matter
// (Node resolves it once), and it names the chunks it imports with theirs.
for (const name of readdirSync(outdir).filter((file) => file.startsWith("cli.mjs"))) {
	renameSync(join(outdir, name), join(outdir, name.replace("cli.mjs", "cli.js")));
}
const entryFile = join(outdir, "cli.js");
writeFileSync(
	entryFile,
	readFileSync(entryFile, "utf8").replace("sourceMappingURL=cli.mjs.map", "sourceMappingURL=cli.js.map"),
);
const entryOutput = "packages/coding-agent/dist/bundle/cli.mjs";
metafile.outputs["packages/coding-agent/dist/bundle/cli.js"] = metafile.outputs[entryOutput];
delete metafile.outputs[entryOutput];

// The catalog reader looks for the nearest catalog/providers/ above its own file (a chunk of this bundle).
cpSync(catalogDir, join(outdir, "catalog/providers"), { recursive: true });

// esbuild's record of which source modules (and how many of their bytes) each output file holds, so
// tests and the startup benchmark can tell what a run loaded from the chunk files it opened.
writeFileSync(join(outdir, "metafile.json"), JSON.stringify(metafile));
