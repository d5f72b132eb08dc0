// Loads benchmark TypeScript (packages/*/bench/*.ts) against the packages' sources: every public
// entry of a package's `exports` maps dist/*.js to src/*.ts. Shared by the bench runner and the
// CPU profile script.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createJiti } from "jiti";

export const root = resolve(import.meta.dirname, "../..");

export function benchJiti() {
	const aliasEntries = [];
	for (const pkg of readdirSync(join(root, "packages"))) {
		const manifest = JSON.parse(readFileSync(join(root, "packages", pkg, "package.json"), "utf8"));
		for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
			const source = target.import.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts");
			aliasEntries.push([`@tau/${pkg}${subpath.slice(1)}`, join(root, "packages", pkg, source)]);
		}
	}
	// Longer names first, so `@tau/ai/providers/all` is not taken for a subpath of `@tau/ai`.
	const alias = Object.fromEntries(aliasEntries.sort((a, b) => b[0].length - a[0].length));
	return createJiti(import.meta.url, { alias, interopDefault: true });
}
