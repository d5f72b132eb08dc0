import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { discoverContextFiles } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { git, hasGit, resourceDirs, write } from "./helpers.js";

function paths(options: { cwd: string; agentDir: string }): string[] {
	return discoverContextFiles(options).agentsFiles.map((file) => file.path);
}

describe("context files", () => {
	it("loads the global file first, then ancestors root-most first, the cwd last", () => {
		const { root, agentDir, cwd } = resourceDirs();
		const global = write(join(agentDir, "AGENTS.md"), "global rules");
		const top = write(join(root, "AGENTS.md"), "root rules");
		const work = write(join(root, "work", "CLAUDE.md"), "work rules");
		const own = write(join(cwd, "AGENTS.md"), "\uFEFFproject rules");
		const files = discoverContextFiles({ cwd, agentDir }).agentsFiles;
		expect(files.map((file) => file.path)).toEqual([global, top, work, own]);
		expect(files.at(-1)?.content).toBe("project rules");
	});

	it("takes one file per directory in candidate order, including uppercase .MD variants", () => {
		const { root, agentDir, cwd } = resourceDirs();
		write(join(cwd, "AGENTS.md"), "a");
		write(join(cwd, "CLAUDE.md"), "c");
		write(join(root, "work", "CLAUDE.MD"), "upper");
		write(join(root, "work", "CLAUDE.md.bak"), "no");
		expect(paths({ cwd, agentDir })).toEqual([join(root, "work", "CLAUDE.MD"), join(cwd, "AGENTS.md")]);
	});

	it("lets AGENTS.override.md shadow only its own directory", () => {
		const { root, agentDir, cwd } = resourceDirs();
		write(join(agentDir, "AGENTS.md"), "global");
		write(join(root, "work", "AGENTS.md"), "parent");
		write(join(cwd, "AGENTS.md"), "regular");
		const override = write(join(cwd, "AGENTS.override.md"), "override");
		expect(paths({ cwd, agentDir })).toEqual([
			join(agentDir, "AGENTS.md"),
			join(root, "work", "AGENTS.md"),
			override,
		]);
	});

	it("skips a directory named AGENTS.md and uses the next candidate", () => {
		const { agentDir, cwd } = resourceDirs();
		mkdirSync(join(cwd, "AGENTS.md"));
		const claude = write(join(cwd, "CLAUDE.md"), "c");
		expect(paths({ cwd, agentDir })).toEqual([claude]);
	});

	it("loads a file once when the agent dir lies on the ancestor chain", () => {
		const { agentDir } = resourceDirs();
		const global = write(join(agentDir, "AGENTS.md"), "global");
		const cwd = join(agentDir, "sub");
		mkdirSync(cwd);
		expect(paths({ cwd, agentDir })).toEqual([global]);
	});

	it.runIf(hasGit())("skips the main checkout's file inside a nested linked worktree", () => {
		const { root, agentDir } = resourceDirs();
		const repo = join(root, "repo");
		mkdirSync(repo);
		git(repo, "init", "-q");
		const mainFile = write(join(repo, "AGENTS.md"), "main");
		git(repo, "add", ".");
		git(repo, "commit", "-qm", "init");
		git(repo, "worktree", "add", "-q", join(repo, ".worktrees", "feature"));
		git(repo, "worktree", "add", "-q", join(root, "sibling"));
		const nested = join(repo, ".worktrees", "feature");
		expect(paths({ cwd: nested, agentDir })).toEqual([join(nested, "AGENTS.md")]);
		// Without its own file the worktree keeps the main checkout's instructions.
		const bare = join(repo, ".worktrees", "bare-feature");
		git(repo, "worktree", "add", "-q", bare);
		execFileSync("git", ["rm", "-q", "AGENTS.md"], { cwd: bare });
		expect(paths({ cwd: bare, agentDir })).toEqual([mainFile]);
		// A sibling worktree is not nested: only its own file is on its ancestor chain anyway.
		expect(paths({ cwd: join(root, "sibling"), agentDir })).toEqual([join(root, "sibling", "AGENTS.md")]);
		// A plain repository keeps every ancestor file.
		const sub = join(repo, "pkg");
		const subFile = write(join(sub, "AGENTS.md"), "sub");
		expect(paths({ cwd: sub, agentDir })).toEqual([mainFile, subFile]);
	});

	it.runIf(hasGit())("recognises a worktree file that is a symlink to the main file", () => {
		const { root, agentDir } = resourceDirs();
		const repo = join(root, "repo");
		mkdirSync(repo);
		git(repo, "init", "-q");
		write(join(repo, "README"), "x");
		git(repo, "add", ".");
		git(repo, "commit", "-qm", "init");
		write(join(repo, "AGENTS.md"), "main");
		const nested = join(repo, "wt");
		git(repo, "worktree", "add", "-q", nested);
		symlinkSync(join(repo, "AGENTS.md"), join(nested, "AGENTS.md"));
		expect(paths({ cwd: nested, agentDir })).toEqual([join(nested, "AGENTS.md")]);
	});

	it.runIf(hasGit())("leaves a bare-repository layout alone (its .git is a file, not the common dir)", () => {
		const { root, agentDir } = resourceDirs();
		const seed = join(root, "seed");
		mkdirSync(seed);
		git(seed, "init", "-q");
		write(join(seed, "AGENTS.md"), "seed");
		git(seed, "add", ".");
		git(seed, "commit", "-qm", "init");
		const project = join(root, "project");
		mkdirSync(project);
		git(root, "clone", "-q", "--bare", seed, join(project, ".bare"));
		write(join(project, ".git"), "gitdir: ./.bare\n");
		const projectFile = write(join(project, "AGENTS.md"), "project");
		const tree = join(project, "main");
		git(project, "worktree", "add", "-q", tree);
		expect(paths({ cwd: tree, agentDir })).toEqual([projectFile, join(tree, "AGENTS.md")]);
	});

	it.runIf(hasGit())("leaves submodules alone (their main root's .git is not the common dir)", () => {
		const { root, agentDir } = resourceDirs();
		const lib = join(root, "lib");
		mkdirSync(lib);
		git(lib, "init", "-q");
		write(join(lib, "AGENTS.md"), "lib");
		git(lib, "add", ".");
		git(lib, "commit", "-qm", "lib");
		const app = join(root, "app");
		mkdirSync(app);
		git(app, "init", "-q");
		const appFile = write(join(app, "AGENTS.md"), "app");
		git(app, "add", ".");
		git(app, "commit", "-qm", "app");
		git(app, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "vendor/lib");
		const sub = join(app, "vendor", "lib");
		expect(paths({ cwd: sub, agentDir })).toEqual([appFile, join(sub, "AGENTS.md")]);
	});
});
