// The second pass of scripts/bundle-cli.mjs: merges the chunk files a headless run always loads together.
// esbuild splits at every `import()` and gives each set of importers its own shared chunk, so a `-p`
// start loaded about 100 files; Node pays per file (resolving, linking, instantiating) besides the bytes,
// about 80 ms of CPU on that start (packages/coding-agent/bench/profiles/README.md, "Fourth pass").
// rolldown re-bundles esbuild's output (already minified, CommonJS and `define` resolved) and puts each
// group's files into one chunk; every other file keeps a chunk of its own as esbuild split it.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { isBuiltin } from "node:module";
import { join, relative } from "node:path";
import { rolldown } from "rolldown";

/**
 * The esbuild output files to merge into each named chunk: for each group, the files its source entries
 * import statically, less those of earlier groups and of `keepSeparate` (so what loads those stays as
 * small as before). A path that imports any file of a group loads the whole group.
 */
function chunkGroups(metafile, root, groups, keepSeparate) {
	const outputs = metafile.outputs;
	// esbuild names an entry by its real path, so a linked node_modules (the bench's baseline checkout)
	// names it differently from `entry`: compare real paths.
	const realEntry = (path) => realpathSync(join(root, path));
	const outputOf = (entry) => {
		const wanted = realEntry(entry);
		const found = Object.keys(outputs).find(
			(path) => outputs[path].entryPoint !== undefined && realEntry(outputs[path].entryPoint) === wanted,
		);
		if (!found) throw new Error(`bundle-chunk-groups: no output has the entry ${entry}`);
		return found;
	};
	const closure = (entries) => {
		const seen = new Set();
		const visit = (path) => {
			if (seen.has(path)) return;
			seen.add(path);
			for (const item of outputs[path].imports)
				if (item.kind === "import-statement" && !item.external) visit(item.path);
		};
		for (const entry of entries) visit(outputOf(entry));
		return seen;
	};
	const assigned = closure(keepSeparate);
	return groups.map(({ name, entries }) => {
		const files = [...closure(entries)].filter((path) => !assigned.has(path));
		for (const path of files) assigned.add(path);
		const ids = new Set(files.map((path) => join(root, path)));
		return { name, test: (id) => ids.has(id) };
	});
}

/**
 * The file without esbuild's `banner` when nothing else in it calls `require`: merged, each copy would
 * still make a `require` function at load (84 of them in the start chunk). The line stays, empty, so
 * esbuild's source map still fits.
 */
function withoutUnusedBanner(code, banner) {
	const at = code.indexOf(banner);
	if (at === -1 || /\brequire\b/.test(code.slice(at + banner.length))) return code;
	return code.slice(0, at) + code.slice(at + banner.length);
}

/**
 * Re-bundles esbuild's output in `stageDir` (from its `entry` file) into `outdir` (entry `cli.js`) with the
 * groups merged, composing esbuild's source maps, and returns esbuild's metafile rewritten for the new files (each output lists the
 * source modules of the esbuild files it holds), which the lazy-loading tests read. `banner` is the text
 * esbuild put at the top of every file.
 */
export async function mergeChunkGroups({
	root,
	stageDir,
	entry,
	outdir,
	metafile,
	groups,
	keepSeparate,
	external,
	minify,
	banner,
}) {
	const bundle = await rolldown({
		input: { cli: join(stageDir, entry) },
		platform: "node",
		// Required with `includeDependenciesRecursively: false`: an entry's chunk may export more than it did.
		preserveEntrySignatures: "allow-extension",
		external: (id) => isBuiltin(id) || external.some((pattern) => id === pattern || id.startsWith(`${pattern}/`)),
		// esbuild already left out what is unused; a second tree-shake only costs time.
		treeshake: false,
		plugins: [
			{
				name: "esbuild-source-maps",
				load(id) {
					const code = withoutUnusedBanner(readFileSync(id, "utf8"), banner);
					const map = `${id}.map`;
					return existsSync(map) ? { code, map: readFileSync(map, "utf8") } : { code };
				},
			},
		],
	});
	const { output } = await bundle.write({
		dir: outdir,
		format: "esm",
		entryFileNames: "[name].js",
		chunkFileNames: "chunks/[name]-[hash].mjs",
		sourcemap: true,
		minify,
		// A group holds its own files only, not those of earlier groups or `keepSeparate` that it imports
		// (which import nothing of a later group, so the chunks import each other without a cycle).
		codeSplitting: {
			groups: chunkGroups(metafile, root, groups, keepSeparate),
			includeDependenciesRecursively: false,
		},
	});
	await bundle.close();

	const stageKey = (id) => relative(root, id);
	const outputKey = (fileName) => relative(root, join(outdir, fileName));
	const outputs = {};
	for (const chunk of output) {
		if (chunk.type !== "chunk") continue;
		const inputs = {};
		for (const id of chunk.moduleIds) Object.assign(inputs, metafile.outputs[stageKey(id)]?.inputs);
		outputs[outputKey(chunk.fileName)] = {
			bytes: Buffer.byteLength(chunk.code),
			inputs,
			imports: [
				...chunk.imports.map((path) => ({ path: outputKey(path), kind: "import-statement" })),
				...chunk.dynamicImports.map((path) => ({ path: outputKey(path), kind: "dynamic-import" })),
			],
			...(chunk.facadeModuleId ? { entryPoint: metafile.outputs[stageKey(chunk.facadeModuleId)]?.entryPoint } : {}),
		};
	}
	return { inputs: metafile.inputs, outputs };
}
