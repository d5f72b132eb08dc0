import { readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";

function real(path: string): string | undefined {
	try {
		return realpathSync(path);
	} catch {
		return undefined;
	}
}

/**
 * Detects a linked git worktree nested inside its main checkout (e.g. `repo/.worktrees/x`).
 * Bare layouts and submodules do not qualify: the main root's `.git` must be the common git dir.
 */
export function nestedWorktreeOf(cwd: string): { worktreeRoot: string; mainRoot: string } | undefined {
	let dir = resolve(cwd);
	for (;;) {
		const dotGit = join(dir, ".git");
		let isFile: boolean | undefined;
		try {
			isFile = statSync(dotGit).isFile();
		} catch {
			isFile = undefined;
		}
		if (isFile === false) return undefined;
		if (isFile === true) return linkedWorktree(dir, dotGit);
		const parent = dirname(dir);
		if (parent === dir) return undefined;
		dir = parent;
	}
}

function linkedWorktree(dir: string, dotGitFile: string): { worktreeRoot: string; mainRoot: string } | undefined {
	let gitDir: string;
	let commonDir: string;
	try {
		const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGitFile, "utf8"));
		if (!match?.[1]) return undefined;
		gitDir = resolve(dir, match[1]);
		let common = gitDir;
		try {
			common = resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
		} catch {
			// Without a commondir file the git dir is its own common dir (e.g. a submodule).
		}
		commonDir = common;
	} catch {
		return undefined;
	}
	const realCommon = real(commonDir);
	const worktreeRoot = real(dir);
	if (!realCommon || !worktreeRoot) return undefined;
	const mainRoot = dirname(realCommon);
	if (!worktreeRoot.startsWith(mainRoot + sep) || worktreeRoot === mainRoot) return undefined;
	if (real(join(mainRoot, ".git")) !== realCommon) return undefined;
	return { worktreeRoot, mainRoot };
}
