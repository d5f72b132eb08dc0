import { existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { DefaultResourceLoader } from "@tau/coding-agent";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import {
	type DefaultResourceLoaderOptions,
	detectPackageManager,
	type PackageProgressEvent,
	satisfiesVersion,
} from "../../src/core/resources/index.js";
import { fakeExtensionLoader, fakeNpm, git, hasGit, resourceDirs, write, writeJson } from "./helpers.js";

function setup(settings: Record<string, unknown>) {
	const dirs = resourceDirs();
	const npm = fakeNpm(join(dirs.root, "bin"), {
		"@acme/tools": "1.2.0",
		"quick-tool": "1.0.0",
		"project-tool": "1.0.0",
	});
	writeJson(join(dirs.agentDir, "settings.json"), { npmCommand: npm.npmCommand, ...settings });
	const make = (options: Partial<DefaultResourceLoaderOptions> = {}) =>
		new DefaultResourceLoader({
			cwd: dirs.cwd,
			agentDir: dirs.agentDir,
			homeDir: dirs.home,
			loadExtensions: fakeExtensionLoader().load,
			...options,
		});
	return { ...dirs, calls: npm.calls, make };
}

const paths = (loader: DefaultResourceLoader) => loader.getExtensions().extensions.map((extension) => extension.path);
const warnings = (loader: DefaultResourceLoader) =>
	(loader.getExtensions().warnings ?? []).map((warning) => warning.message);

afterEach(() => {
	vi.unstubAllEnvs();
});

describe("installing missing packages on reload", () => {
	it("installs a configured npm package into the user root and loads it; a failure is a warning and others load", async () => {
		const { agentDir, calls, make } = setup({ packages: ["npm:@acme/tools@1.2.0", "npm:broken-pkg"] });
		const own = write(join(agentDir, "extensions", "own.ts"), "");
		const progress: PackageProgressEvent[] = [];
		const loader = make({ onPackageProgress: (event) => progress.push(event) });
		await loader.reload();

		const root = join(agentDir, "npm");
		expect(calls()[0]).toEqual([
			"install",
			"@acme/tools@1.2.0",
			"--prefix",
			realpathSync(root),
			"--legacy-peer-deps",
			"--no-audit",
			"--no-fund",
		]);
		expect(readFileSync(join(root, ".gitignore"), "utf8")).toBe("*\n!.gitignore\n");
		expect(JSON.parse(readFileSync(join(root, "package.json"), "utf8"))).toEqual({
			name: "tau-extensions",
			private: true,
		});
		expect(paths(loader)).toEqual([own, join(root, "node_modules", "@acme", "tools", "extensions", "index.ts")]);
		const [failure] = warnings(loader);
		expect(failure).toMatch(
			/^Extension package "npm:broken-pkg": failed to install \(.*404 Not Found: broken-pkg\)\. /,
		);
		expect(failure?.endsWith('Run "tau remove npm:broken-pkg" to remove it from settings.json.')).toBe(true);
		expect(progress.map((event) => `${event.type}:${event.source}`)).toEqual([
			"start:npm:@acme/tools@1.2.0",
			"complete:npm:@acme/tools@1.2.0",
			"start:npm:broken-pkg",
			"error:npm:broken-pkg",
		]);

		// The next reload installs nothing that is present and retries what failed.
		await loader.reload();
		expect(calls().map((args) => args[1])).toEqual(["@acme/tools@1.2.0", "broken-pkg", "broken-pkg"]);
	});

	it("installs -e npm sources into the temporary cache with the temporary remedy on failure", async () => {
		const { agentDir, calls, make } = setup({});
		const loader = make({ additionalExtensionPaths: ["npm:quick-tool", "npm:broken-tool"] });
		await loader.reload();
		const [installed] = paths(loader);
		expect(installed?.startsWith(join(agentDir, "tmp", "extensions", "npm"))).toBe(true);
		expect(installed?.endsWith(join("node_modules", "quick-tool", "extensions", "index.ts"))).toBe(true);
		expect(calls().map((args) => args[1])).toEqual(["quick-tool", "broken-tool"]);
		expect(warnings(loader)[0]?.endsWith("Check the source and try again.")).toBe(true);
	});

	it("refreshes an installed -e package to a newer version on the next reload, but not offline", async () => {
		const { root, agentDir, calls, make } = setup({});
		const loader = make({ additionalExtensionPaths: ["npm:quick-tool"] });
		await loader.reload();
		const [entry] = paths(loader);
		const manifest = join(entry!, "..", "..", "package.json");
		expect(JSON.parse(readFileSync(manifest, "utf8")).version).toBe("1.0.0");
		writeJson(join(root, "bin", "registry.json"), { "quick-tool": "1.1.0" });
		vi.stubEnv("TAU_OFFLINE", "1");
		await loader.reload();
		expect(calls().map((args) => args[0])).toEqual(["install"]);
		vi.unstubAllEnvs();
		await loader.reload();
		expect(calls().map((args) => args.slice(0, 2))).toEqual([
			["install", "quick-tool"],
			["view", "quick-tool"],
			["install", "quick-tool@latest"],
		]);
		expect(JSON.parse(readFileSync(manifest, "utf8")).version).toBe("1.1.0");
		expect(entry?.startsWith(join(agentDir, "tmp", "extensions"))).toBe(true);
	});

	it("spawns nothing offline and reports the packages as not installed", async () => {
		vi.stubEnv("TAU_OFFLINE", "1");
		const { calls, make } = setup({ packages: ["npm:@acme/tools"] });
		const loader = make();
		await loader.reload();
		expect(calls()).toEqual([]);
		expect(paths(loader)).toEqual([]);
		expect(warnings(loader)).toEqual([
			'Extension package "npm:@acme/tools": failed to install (offline mode). Run "tau remove npm:@acme/tools" to remove it from settings.json.',
		]);
	});

	it("installs project packages only when the project is trusted", async () => {
		const { cwd, calls, make } = setup({});
		writeJson(join(cwd, ".tau", "settings.json"), { packages: ["npm:project-tool"] });
		const loader = make();
		await loader.reload({ resolveProjectTrust: async () => false });
		expect(calls()).toEqual([]);
		await loader.reload({ resolveProjectTrust: async () => true });
		expect(calls().map((args) => [args[1], args[3]])).toEqual([
			["project-tool", realpathSync(join(cwd, ".tau", "npm"))],
		]);
	});
});

describe("installed npm versions", () => {
	it("reinstalls a package whose installed version does not match the configured one", async () => {
		const { agentDir, calls, make } = setup({ packages: ["npm:@acme/tools@1.2.0"] });
		writeJson(join(agentDir, "npm", "node_modules", "@acme", "tools", "package.json"), { version: "1.0.0" });
		const loader = make();
		await loader.reload();
		await loader.reload();
		expect(calls().map((args) => args[1])).toEqual(["@acme/tools@1.2.0"]);
	});

	it("checks exact versions, ^ and ~ ranges and partials; other ranges are undecided", () => {
		expect(satisfiesVersion("1.2.0", "1.2.0")).toBe(true);
		expect(satisfiesVersion("1.2.1", "1.2.0")).toBe(false);
		expect(satisfiesVersion("1.9.0", "^1.2.0")).toBe(true);
		expect(satisfiesVersion("2.0.0", "^1.2.0")).toBe(false);
		expect(satisfiesVersion("1.1.0", "^1.2.0")).toBe(false);
		expect(satisfiesVersion("0.2.5", "^0.2.1")).toBe(true);
		expect(satisfiesVersion("0.3.0", "^0.2.1")).toBe(false);
		expect(satisfiesVersion("1.2.9", "~1.2.3")).toBe(true);
		expect(satisfiesVersion("1.3.0", "~1.2.3")).toBe(false);
		expect(satisfiesVersion("1.4.2", "1.x")).toBe(true);
		expect(satisfiesVersion("2.0.0", "1")).toBe(false);
		expect(satisfiesVersion("1.0.0", "latest")).toBeUndefined();
		expect(satisfiesVersion("1.0.0", ">=1 <2")).toBeUndefined();
	});
});

describe("npmCommand", () => {
	it("detects npm, pnpm and bun, also when wrapped, and refuses ambiguity", () => {
		expect(detectPackageManager(["npm"])).toBe("npm");
		expect(detectPackageManager(["/usr/local/bin/pnpm"])).toBe("pnpm");
		expect(detectPackageManager(["mise", "exec", "--", "bun"])).toBe("bun");
		expect(detectPackageManager(["corepack", "pnpm"])).toBe("pnpm");
		expect(() => detectPackageManager(["wrapper", "npm", "bun"])).toThrow(
			"Ambiguous npmCommand package managers: npm, bun",
		);
	});
});

describe.runIf(hasGit())("git packages (needs git)", () => {
	it("clones into the user git root, checks out the pinned ref, and removes a failed checkout", async () => {
		const { root, agentDir, make } = setup({
			packages: ["git:git.example.test/acme/tool@v1", "git:git.example.test/acme/missing"],
		});
		const remotes = join(root, "remotes");
		const repo = join(remotes, "acme", "tool");
		mkdirSync(repo, { recursive: true });
		git(repo, "init", "-q");
		write(join(repo, "extensions", "index.ts"), "export default () => {};");
		git(repo, "add", ".");
		git(repo, "commit", "-qm", "v1");
		git(repo, "tag", "v1");
		write(join(repo, "extensions", "later.ts"), "export default () => {};");
		git(repo, "add", ".");
		git(repo, "commit", "-qm", "after v1");
		// Route the https clone URL to the local repositories instead of the network.
		vi.stubEnv("GIT_CONFIG_COUNT", "1");
		vi.stubEnv("GIT_CONFIG_KEY_0", `url.file://${remotes}/.insteadOf`);
		vi.stubEnv("GIT_CONFIG_VALUE_0", "https://git.example.test/");
		const loader = make();
		await loader.reload();
		const checkout = join(agentDir, "git", "git.example.test", "acme", "tool");
		expect(paths(loader)).toEqual([join(checkout, "extensions", "index.ts")]);
		expect(existsSync(join(checkout, "extensions", "later.ts"))).toBe(false);
		expect(existsSync(join(agentDir, "git", "git.example.test", "acme", "missing"))).toBe(false);
		expect(warnings(loader)).toHaveLength(1);
		expect(warnings(loader)[0]).toMatch(
			/^Extension package "git:git.example.test\/acme\/missing": failed to install/,
		);
	});

	it("hints at credentials when a clone needs a password it cannot ask for", async () => {
		const server = createServer((_request, response) => {
			response.writeHead(401, { "WWW-Authenticate": 'Basic realm="git"' });
			response.end();
		});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
		const port = (server.address() as AddressInfo).port;
		const { make } = setup({ packages: [`git:localhost:${port}/acme/private`] });
		vi.stubEnv("GIT_CONFIG_COUNT", "1");
		vi.stubEnv("GIT_CONFIG_KEY_0", `url.http://127.0.0.1:${port}/.insteadOf`);
		vi.stubEnv("GIT_CONFIG_VALUE_0", `https://localhost:${port}/`);
		const loader = make();
		await loader.reload();
		expect(warnings(loader)[0]).toContain(
			`Configure a git credential helper or an ssh agent, or run "tau install git:localhost:${port}/acme/private" from a shell.`,
		);
	});
});
