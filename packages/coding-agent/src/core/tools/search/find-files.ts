import { spawn } from "node:child_process";
import { sep } from "node:path";
import { trackChild } from "../shell/process-group.js";
import { ABORTED_MESSAGE } from "../types.js";
import type { SearchBinary } from "./binaries.js";
import { createPathGlob, escapeGlob } from "./glob.js";
import { findGitRoot } from "./ignore-rules.js";
import { walkTree } from "./walk.js";

/** fd's smart case: an all-lowercase pattern matches case-insensitively. */
function isSmartCaseInsensitive(pattern: string): boolean {
	return pattern === pattern.toLowerCase();
}

function normalizePattern(pattern: string): string {
	return pattern.replace(/^(\.\/)+/, "");
}

/** Builds the fd command line (docs/design/tools.md#find); the search directory is fd's cwd. */
export function fdArguments(binary: SearchBinary, pattern: string, searchPath: string, limit: number): string[] {
	const args = ["--color=never", "--hidden", "--exclude", ".git"];
	if (binary.supportsNoRequireGit && !findGitRoot(searchPath)) args.push("--no-require-git");
	args.push("--glob", "--max-results", String(limit));
	let glob = normalizePattern(pattern);
	if (glob.includes("/")) {
		args.push("--full-path");
		// Anchor relative path patterns at the search directory, not anywhere in the tree.
		if (!glob.startsWith("/")) glob = `${escapeGlob(searchPath.split(sep).join("/"))}/${glob}`;
		args.push(isSmartCaseInsensitive(pattern) ? "--ignore-case" : "--case-sensitive");
	}
	args.push("--", glob);
	return args;
}

/** Runs fd inside the search directory; paths come back relative, directories with a trailing `/`. */
export function runFd(
	binary: SearchBinary,
	pattern: string,
	searchPath: string,
	limit: number,
	signal: AbortSignal | undefined,
): Promise<string[]> {
	return new Promise((resolve, reject) => {
		const child = spawn(binary.path, fdArguments(binary, pattern, searchPath, limit), {
			cwd: searchPath,
			stdio: ["ignore", "pipe", "pipe"],
			windowsHide: true,
		});
		trackChild(child, "process");
		let stdout = "";
		let stderr = "";
		let aborted = false;
		const onAbort = () => {
			aborted = true;
			child.kill("SIGKILL");
		};
		signal?.addEventListener("abort", onAbort, { once: true });
		child.stdout.on("data", (data: Buffer) => {
			stdout += data.toString("utf8");
		});
		child.stderr.on("data", (data: Buffer) => {
			stderr += data.toString("utf8");
		});
		child.once("error", (error) => {
			signal?.removeEventListener("abort", onAbort);
			reject(new Error(`Failed to run fd: ${error.message}`));
		});
		child.once("close", (code) => {
			signal?.removeEventListener("abort", onAbort);
			if (aborted) return reject(new Error(ABORTED_MESSAGE));
			const paths = stdout
				.split("\n")
				.filter((line) => line !== "")
				.map((line) => line.replace(/^\.\//, "").split("\\").join("/"));
			if (code !== 0 && paths.length === 0) return reject(new Error(stderr.trim() || `fd exited with code ${code}`));
			resolve(paths);
		});
	});
}

/** The built-in find: fd's matching over the same walk (hidden included, .gitignore honoured). */
export async function nodeFind(
	pattern: string,
	searchPath: string,
	limit: number,
	signal: AbortSignal | undefined,
): Promise<string[]> {
	const glob = normalizePattern(pattern);
	const matches = createPathGlob(glob, isSmartCaseInsensitive(pattern));
	const results: string[] = [];
	for await (const entry of walkTree(searchPath, {
		gitignore: true,
		toolIgnoreFile: ".fdignore",
		...(signal ? { signal } : {}),
	})) {
		if (!matches(entry.path)) continue;
		results.push(entry.isDirectory ? `${entry.path}/` : entry.path);
		if (results.length >= limit) break;
	}
	return results;
}
