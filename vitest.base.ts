import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

interface PackageExports {
	exports?: Record<string, { import?: string }>;
}

/**
 * Tests import packages by name (`@tau/ai`, `@tau/ai/providers/all`). This resolver maps each
 * public entry of a package's `exports` from `dist/*.js` to the matching `src/*.ts`, so tests run
 * against sources with no build and only public entry points are importable.
 */
function tauSourceResolver(): Plugin {
	const cache = new Map<string, PackageExports>();
	const manifest = (pkg: string): PackageExports => {
		let entry = cache.get(pkg);
		if (!entry) {
			entry = JSON.parse(readFileSync(join(root, "packages", pkg, "package.json"), "utf8")) as PackageExports;
			cache.set(pkg, entry);
		}
		return entry;
	};
	return {
		name: "tau-source-resolver",
		enforce: "pre",
		resolveId(id) {
			const match = /^@tau\/([^/]+)(\/.*)?$/.exec(id);
			if (!match) return null;
			const [, pkg, subpath] = match;
			const target = manifest(pkg!).exports?.[`.${subpath ?? ""}`]?.import;
			if (!target) return null;
			return join(root, "packages", pkg!, target.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));
		},
	};
}

/**
 * `globalSetup`: files run once before a package's tests (coding-agent builds the export viewer),
 * after vitest.hermetic.ts has given the run a temporary HOME.
 */
export function packageConfig(name: string, options: { globalSetup?: string[] } = {}) {
	return defineConfig({
		plugins: [tauSourceResolver()],
		test: {
			name,
			globalSetup: [join(root, "vitest.hermetic.ts"), ...(options.globalSetup ?? [])],
			include: ["test/**/*.test.ts"],
			environment: "node",
			testTimeout: 20_000,
			hookTimeout: 20_000,
			pool: "forks",
		},
	});
}
