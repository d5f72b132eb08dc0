import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { SettingsManager } from "@tau/coding-agent";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
	checkForAvailableUpdates,
	isNewerVersion,
	updateMarkerPath,
	updatePackages,
} from "../../src/core/resources/index.js";
import { fakeNpm, git, hasGit, resourceDirs, write, writeJson } from "./helpers.js";

function setup(packages: unknown[]) {
	const dirs = resourceDirs();
	const npm = fakeNpm(join(dirs.root, "bin"), { "tool-a": "2.0.0", "tool-b": "2.0.0", "tool-c": "2.0.0" });
	writeJson(join(dirs.agentDir, "settings.json"), { packages });
	const installed = (name: string, version: string) =>
		writeJson(join(dirs.agentDir, "npm", "node_modules", name, "package.json"), { name, version });
	const update = (extra: { source?: string; offline?: boolean; lookupTimeoutMs?: number } = {}) =>
		updatePackages({
			cwd: dirs.cwd,
			agentDir: dirs.agentDir,
			settings: SettingsManager.create(dirs.cwd, dirs.agentDir),
			npmCommand: npm.npmCommand,
			...extra,
		});
	const check = (extra: { offline?: boolean } = {}) =>
		checkForAvailableUpdates({
			cwd: dirs.cwd,
			agentDir: dirs.agentDir,
			settings: SettingsManager.create(dirs.cwd, dirs.agentDir),
			npmCommand: npm.npmCommand,
			...extra,
		});
	return { ...dirs, calls: npm.calls, installed, update, check };
}

afterEach(() => {
	vi.unstubAllEnvs();
});

describe("updating npm packages", () => {
	it("skips pinned specs, reinstalls outdated ones as name@latest, and reports result lines", async () => {
		const { agentDir, calls, installed, update } = setup(["npm:tool-a", "npm:tool-b@1.0.0", "npm:tool-c"]);
		installed("tool-a", "1.0.0");
		installed("tool-b", "1.0.0");
		installed("tool-c", "2.0.0");
		const report = await update();
		expect(calls()).toEqual([
			["view", "tool-a", "version", "--json"],
			["view", "tool-c", "version", "--json"],
			[
				"install",
				"tool-a@latest",
				"--prefix",
				join(agentDir, "npm"),
				"--legacy-peer-deps",
				"--no-audit",
				"--no-fund",
			],
		]);
		expect(report.summary).toEqual(["Updated 1 package(s):", "npm:tool-a 1.0.0 -> 2.0.0"]);
		expect((await update()).summary).toEqual(["Packages are already up to date"]);
	});

	it("matches one package by identity, refuses unknown ones, and does nothing offline", async () => {
		const { calls, installed, update } = setup(["npm:tool-a", "npm:tool-c"]);
		installed("tool-a", "1.0.0");
		installed("tool-c", "1.0.0");
		const one = await update({ source: "npm:tool-c@2" });
		expect(one.updated).toEqual(["npm:tool-c 1.0.0 -> 2.0.0"]);
		expect(calls().filter((args) => args[0] === "view")).toEqual([["view", "tool-c", "version", "--json"]]);
		await expect(update({ source: "npm:other" })).rejects.toThrow("No matching package found for npm:other");
		await expect(update({ source: "tool-c" })).rejects.toThrow(
			"No matching package found for tool-c. Did you mean npm:tool-c?",
		);
		const before = calls().length;
		expect((await update({ offline: true })).summary).toEqual(["Skipped package updates (offline mode)"]);
		expect(calls().length).toBe(before);
	});

	it("treats a registry lookup that times out as failed and updates the package", async () => {
		const { root, calls, installed, update } = setup(["npm:tool-a"]);
		installed("tool-a", "1.0.0");
		writeJson(join(root, "bin", "registry.json"), { "tool-a": "hang" });
		// The lookup deadline fires when the test says so: only once the hanging lookup has started,
		// however long a loaded machine takes to spawn it.
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
		try {
			const pending = update({ lookupTimeoutMs: 200 });
			// Polled on the real setInterval (vi.waitFor would advance the fake clock while it waits).
			await new Promise<void>((started) => {
				const poll = setInterval(() => {
					if (calls().length === 0) return;
					clearInterval(poll);
					started();
				}, 20);
			});
			vi.advanceTimersByTime(200);
			const report = await pending;
			expect(calls().map((args) => args.slice(0, 2))).toEqual([
				["view", "tool-a"],
				["install", "tool-a@latest"],
			]);
			expect(report.updated).toEqual(["npm:tool-a 1.0.0 -> hang"]);
		} finally {
			vi.useRealTimers();
		}
	}, 60_000);

	it("announces newer versions of installed unpinned packages only, and nothing offline", async () => {
		const { installed, check } = setup(["npm:tool-a", "npm:tool-b@1.0.0", "npm:tool-c", "npm:tool-d"]);
		installed("tool-a", "1.0.0");
		installed("tool-b", "1.0.0");
		installed("tool-c", "2.0.0");
		expect(await check()).toEqual(["npm:tool-a"]);
		expect(await check({ offline: true })).toEqual([]);
	});

	it("compares versions numerically; a release is newer than its prerelease", () => {
		expect(isNewerVersion("1.10.0", "1.9.9")).toBe(true);
		expect(isNewerVersion("1.2.0", "1.2.0")).toBe(false);
		expect(isNewerVersion("1.2.0", "1.2.0-beta.1")).toBe(true);
		expect(isNewerVersion("1.1.9", "1.2.0")).toBe(false);
	});
});

describe.runIf(hasGit())("updating git packages (needs git)", () => {
	function remote(root: string) {
		const remotes = join(root, "remotes");
		const repo = join(remotes, "acme", "tool");
		mkdirSync(repo, { recursive: true });
		git(repo, "init", "-q", "-b", "main");
		write(join(repo, "extensions", "index.ts"), "export default () => {};");
		git(repo, "add", ".");
		git(repo, "commit", "-qm", "one");
		git(repo, "tag", "v1");
		// Route https clone URLs to the local repositories instead of the network.
		vi.stubEnv("GIT_CONFIG_COUNT", "1");
		vi.stubEnv("GIT_CONFIG_KEY_0", `url.file://${remotes}/.insteadOf`);
		vi.stubEnv("GIT_CONFIG_VALUE_0", "https://git.example.test/");
		return repo;
	}

	it("follows the upstream branch and reports shortened commits", async () => {
		const { root, agentDir, update, check } = setup(["git:git.example.test/acme/tool"]);
		const repo = remote(root);
		const first = await update();
		const checkout = join(agentDir, "git", "git.example.test", "acme", "tool");
		const one = git(checkout, "rev-parse", "HEAD");
		expect(first.updated).toEqual([`git:git.example.test/acme/tool (none) -> ${one.slice(0, 7)}`]);
		write(join(repo, "extensions", "more.ts"), "export default () => {};");
		git(repo, "add", ".");
		git(repo, "commit", "-qm", "two");
		const two = git(repo, "rev-parse", "HEAD");
		expect(await check()).toEqual(["git:git.example.test/acme/tool"]);
		const second = await update();
		expect(second.summary).toEqual([
			"Updated 1 package(s):",
			`git:git.example.test/acme/tool ${one.slice(0, 7)} -> ${two.slice(0, 7)}`,
		]);
		expect(git(checkout, "rev-parse", "HEAD")).toBe(two);
		expect(await check()).toEqual([]);
		expect((await update()).summary).toEqual(["Packages are already up to date"]);
	});

	it("reconciles a pinned checkout to its ref and finishes an interrupted update from the marker", async () => {
		const { root, agentDir, update } = setup(["git:git.example.test/acme/tool@v1"]);
		const repo = remote(root);
		const pinned = git(repo, "rev-parse", "v1^{commit}");
		await update();
		const checkout = join(agentDir, "git", "git.example.test", "acme", "tool");
		// Local drift: a commit on top of the pinned ref.
		write(join(checkout, "local.txt"), "drift");
		git(checkout, "add", ".");
		git(checkout, "commit", "-qm", "drift");
		const drifted = await update();
		expect(git(checkout, "rev-parse", "HEAD")).toBe(pinned);
		expect(drifted.updated).toHaveLength(1);
		expect(existsSync(join(checkout, "local.txt"))).toBe(false);

		// An update interrupted after the reset: the marker makes the next run clean up.
		const marker = updateMarkerPath(checkout);
		expect(marker).toBe(join(agentDir, "git", "git.example.test", "acme", ".tool.tau-update-incomplete"));
		write(marker, `${pinned}\n`);
		write(join(checkout, "half-written.tmp"), "partial");
		const recovered = await update();
		expect(recovered.summary).toEqual(["Packages are already up to date"]);
		expect(existsSync(join(checkout, "half-written.tmp"))).toBe(false);
		expect(existsSync(marker)).toBe(false);
	});
});
