import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * pi 1.6 as the test oracle (AGENTS.md): `./test.sh` installs it with scripts/pi-reference.mjs and
 * passes the Node 22 it needs and its CLI as TAU_PI_NODE / TAU_PI_CLI. Tests that need it skip
 * with `PI_MISSING` as the reason when they are empty.
 */
export const PI_NODE = process.env.TAU_PI_NODE ?? "";
export const PI_CLI = process.env.TAU_PI_CLI ?? "";
export const piInstalled = PI_NODE !== "" && PI_CLI !== "" && existsSync(PI_NODE) && existsSync(PI_CLI);
export const PI_MISSING = "pi 1.6 reference not installed (TAU_PI_NODE/TAU_PI_CLI unset; run ./test.sh)";

/** The installed `@earendil-works/pi-coding-agent` package directory (its examples, docs, dist). */
export const PI_PACKAGE_DIR = PI_CLI ? resolve(dirname(PI_CLI), "..", "..") : "";

/** A module of the reference install, for `import()` inside a pi script: `piModule("pi-ai/compat")`. */
export function piModuleUrl(name: string): string {
	const [pkg, ...subpath] = name.split("/");
	const root = join(PI_PACKAGE_DIR, "..", pkg as string);
	const entry = subpath.length === 0 ? "dist/index.js" : `dist/${subpath.join("/")}.js`;
	return pathToFileURL(join(root, entry)).href;
}

/**
 * Runs an ES module body under pi's Node with `input` (JSON) bound and returns what it assigns to
 * `output` (JSON). The body may `await import(piModuleUrl(...))` URLs passed in `input`.
 */
export function runPiScript(
	body: string,
	input: unknown,
	options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<unknown> {
	const script = `const input = JSON.parse(process.argv[1]); let output; ${body}\nprocess.stdout.write(JSON.stringify(output ?? null));`;
	return new Promise((resolvePromise, reject) => {
		const child = spawn(PI_NODE, ["--input-type=module", "-e", script, JSON.stringify(input)], {
			cwd: options.cwd ?? process.cwd(),
			env: { ...process.env, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", ...options.env },
			stdio: ["ignore", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
		child.on("close", (code) => {
			if (code !== 0) reject(new Error(`pi script failed (${code}): ${stderr}`));
			else resolvePromise(JSON.parse(stdout));
		});
	});
}
