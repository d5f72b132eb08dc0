import { spawn, spawnSync } from "node:child_process";
import {
	cpSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	symlinkSync,
	utimesSync,
	writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { documentationPaths } from "../support/doc-paths.js";
import { startLocalRegistry } from "../support/local-registry.js";
import { cliBuilt, REPO_ROOT, type Sandbox, sandbox } from "./harness.js";

const npmFound = spawnSync("npm", ["--version"], { encoding: "utf8" }).status === 0;
const SKIPPED_TOP_LEVEL = new Set([".git", "node_modules", "bench-results", "coverage"]);

/**
 * A clone of this checkout in `box`, already installed and built: sources and `dist/` copied, each
 * dependency linked from this checkout's node_modules (the workspace packages point at the clone's
 * own packages), and the install marker and build stamp newer than every source, so `./tau` starts
 * without installing or building (it never touches this checkout).
 */
function builtClone(box: Sandbox): string {
	const clone = join(box.home, "clone");
	cpSync(REPO_ROOT, clone, {
		recursive: true,
		filter: (source) => {
			const path = relative(REPO_ROOT, source);
			const [top] = path.split(/[\\/]/);
			if (SKIPPED_TOP_LEVEL.has(top!)) return false;
			return !/(^|[\\/])node_modules([\\/]|$)|\.tsbuildinfo$/.test(path);
		},
	});
	const modules = join(clone, "node_modules");
	mkdirSync(join(modules, "@tau"), { recursive: true });
	for (const name of readdirSync(join(REPO_ROOT, "node_modules"))) {
		if (name === "@tau" || name === ".cache" || name.startsWith(".tau-")) continue;
		if (name === ".package-lock.json") cpSync(join(REPO_ROOT, "node_modules", name), join(modules, name));
		else symlinkSync(join(REPO_ROOT, "node_modules", name), join(modules, name));
	}
	for (const name of readdirSync(join(clone, "packages"))) {
		const manifest = JSON.parse(readFileSync(join(clone, "packages", name, "package.json"), "utf8")) as {
			name: string;
		};
		symlinkSync(join(clone, "packages", name), join(modules, manifest.name));
	}
	const past = new Date(Date.now() - 3_600_000);
	const future = new Date(Date.now() + 3_600_000);
	utimesSync(join(clone, "package-lock.json"), past, past);
	writeFileSync(join(modules, ".tau-build-stamp"), "");
	utimesSync(join(modules, ".tau-build-stamp"), future, future);
	return clone;
}

/** Runs a command in `cwd` with the sandbox's environment plus `extra`; npm's cache stays in the sandbox. */
function run(box: Sandbox, command: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) {
	const env = { ...box.env, npm_config_cache: join(box.home, "npm-cache"), ...extra };
	return spawnSync(command, args, { cwd, env, encoding: "utf8", input: "", timeout: 120_000 });
}

/** `run` without blocking the event loop (the local registry answers from this process). */
function runAsync(box: Sandbox, command: string, args: string[], cwd: string) {
	const env = { ...box.env, npm_config_cache: join(box.home, "npm-cache") };
	return new Promise<{ status: number | null; stderr: string }>((resolve) => {
		const child = spawn(command, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
		let stderr = "";
		child.stderr.on("data", (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		child.on("close", (status) => resolve({ status, stderr }));
	});
}

/** The packages a user installs to get the `tau` command (testkit is for tests only). */
const RUNTIME_PACKAGES = ["ai", "agent", "tui", "codemode", "mcp", "coding-agent"];

/** `tau --version` and an offline-demo prompt through `tau` (a path or a name found on PATH). */
function expectWorkingTau(box: Sandbox, tau: string, extra: NodeJS.ProcessEnv = {}): void {
	const version = JSON.parse(readFileSync(join(REPO_ROOT, "packages/coding-agent/package.json"), "utf8")).version;
	const shown = run(box, tau, ["--version"], box.project, extra);
	expect(shown.stderr).toBe("");
	expect(shown.stdout).toBe(`${version}\n`);
	writeFileSync(join(box.project, "README.md"), "# Installed\n");
	const demo = run(box, tau, ["--offline-demo", "-p", "look around"], box.project, extra);
	expect(demo.status).toBe(0);
	expect(demo.stdout).toContain("offline demo model");
	expect(demo.stdout).toContain('README.md starts with: "# Installed"');
}

describe.skipIf(!cliBuilt)("installing tau like a CLI", () => {
	it("./tau runs through a chain of symlinks in a PATH folder, from any directory", () => {
		const box = sandbox();
		const clone = builtClone(box);
		const bin = join(box.home, "bin");
		const links = join(box.home, "links");
		mkdirSync(bin);
		mkdirSync(links);
		symlinkSync(relative(links, join(clone, "tau")), join(links, "tau"));
		symlinkSync(join(links, "tau"), join(bin, "tau"));
		expectWorkingTau(box, "tau", { PATH: `${bin}:${box.env.PATH}` });
	});

	it.skipIf(!npmFound)("npm install -g <clone> puts a working tau on PATH (offline, temp prefix)", () => {
		const box = sandbox();
		const clone = builtClone(box);
		const prefix = join(box.home, "prefix");
		const installed = run(
			box,
			"npm",
			["install", "-g", clone, "--prefix", prefix, "--offline", "--no-audit", "--no-fund"],
			box.home,
		);
		expect(installed.status, installed.stderr).toBe(0);
		expect(existsSync(join(prefix, "bin", "tau"))).toBe(true);
		expectWorkingTau(box, "tau", { PATH: `${join(prefix, "bin")}:${box.env.PATH}` });
	});

	it.skipIf(!npmFound)("npm link in the clone puts a working tau on PATH (offline, temp prefix)", () => {
		const box = sandbox();
		const clone = builtClone(box);
		const prefix = join(box.home, "prefix");
		const linked = run(box, "npm", ["link", "--offline", "--no-audit", "--no-fund"], clone, {
			npm_config_prefix: prefix,
		});
		expect(linked.status, linked.stderr).toBe(0);
		expectWorkingTau(box, "tau", { PATH: `${join(prefix, "bin")}:${box.env.PATH}` });
	});

	it.skipIf(!npmFound)(
		"the packages pack and install together from their tarballs (local registry, temp prefix)",
		async () => {
			const box = sandbox();
			const clone = builtClone(box);
			const packs = join(box.home, "packs");
			mkdirSync(packs);
			const workspaces = RUNTIME_PACKAGES.flatMap((name) => ["-w", `packages/${name}`]);
			const packed = run(box, "npm", ["pack", ...workspaces, "--pack-destination", packs], clone);
			expect(packed.status, packed.stderr).toBe(0);
			const tarballs = readdirSync(packs).map((name) => join(packs, name));
			expect(tarballs).toHaveLength(RUNTIME_PACKAGES.length);

			// Third-party dependencies come from this checkout's node_modules through a registry on 127.0.0.1.
			const registry = await startLocalRegistry(REPO_ROOT);
			const prefix = join(box.home, "prefix");
			try {
				const args = ["install", "-g", ...tarballs, "--prefix", prefix, "--registry", registry.url];
				const installed = await runAsync(box, "npm", [...args, "--no-audit", "--no-fund"], box.home);
				expect(installed.status, installed.stderr).toBe(0);
			} finally {
				await registry.close();
			}
			expectWorkingTau(box, "tau", { PATH: `${join(prefix, "bin")}:${box.env.PATH}` });

			// The documentation the system prompt names ships inside the installed package.
			const packageDir = join(prefix, "lib", "node_modules", "@tau", "coding-agent");
			// The sections builder is internal (not on the package entry); the installed dist holds its module.
			const builder = join(packageDir, "dist", "core", "resources", "system-prompt", "system-prompt.js");
			const script = `import { buildSystemPromptSections } from ${JSON.stringify(builder)};
process.stdout.write(buildSystemPromptSections({ cwd: "/" }).docs);`;
			const section = run(box, process.execPath, ["--input-type=module", "-e", script], box.home);
			expect(section.status, section.stderr).toBe(0);
			const paths = documentationPaths(section.stdout);
			expect(paths.filter((path) => !path.startsWith(packageDir) || !existsSync(path))).toEqual([]);
		},
		600_000,
	);
});
