// Copies the repository's docs/, examples/ and CHANGELOG.md into packages/coding-agent before
// `npm pack` (prepack) and removes the copies afterwards (postpack), so an install from the tarball
// has the documentation its system prompt points the model at (getDocsPath(), getExamplesPath()).
// Usage: node scripts/pack-reader-files.mjs copy|clean
import { cpSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const packageDir = join(root, "packages/coding-agent");
const READER_FILES = ["docs", "examples", "CHANGELOG.md"];

const action = process.argv[2];
if (action !== "copy" && action !== "clean") {
	console.error("usage: node scripts/pack-reader-files.mjs copy|clean");
	process.exit(2);
}
for (const name of READER_FILES) {
	rmSync(join(packageDir, name), { recursive: true, force: true });
	if (action === "copy") cpSync(join(root, name), join(packageDir, name), { recursive: true });
}
