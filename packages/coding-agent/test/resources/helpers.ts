import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { LoadExtensionsResult } from "@tau/coding-agent";
import { onTestFinished } from "vitest";
import type { ExtensionLoadRequest, LoadExtensions, LoadedExtension } from "../../src/core/resources/index.js";

/**
 * A fresh temp layout: a fake home, an agent dir and a project cwd (real paths, no symlinks),
 * removed when the calling test finishes.
 */
export function resourceDirs() {
	const root = realpathSync(mkdtempSync(join(tmpdir(), "tau-resources-")));
	onTestFinished(() => rmSync(root, { recursive: true, force: true }));
	const home = join(root, "home");
	const agentDir = join(home, ".tau", "agent");
	const cwd = join(root, "work", "project");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(cwd, { recursive: true });
	return { root, home, agentDir, cwd };
}

export function write(path: string, content: string): string {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, content);
	return path;
}

export function writeJson(path: string, value: unknown): string {
	return write(path, JSON.stringify(value, null, 2));
}

export function skillFile(dir: string, name: string, description = `Skill ${name}`, extra = ""): string {
	return write(
		join(dir, name, "SKILL.md"),
		`---\nname: ${name}\ndescription: ${description}\n${extra}---\nBody of ${name}\n`,
	);
}

/** What a fake extension registers, keyed by extension file name or inline path. */
export type FakeRegistrations = Record<
	string,
	{ tools?: string[]; commands?: string[]; flags?: string[]; fails?: string }
>;

/**
 * A stand-in for the extension runner: records every request and "loads" each item by
 * returning a record with the registrations configured for its base name.
 */
export function fakeExtensionLoader(registrations: FakeRegistrations = {}) {
	const requests: ExtensionLoadRequest[] = [];
	const loadedPaths: string[] = [];
	const load: LoadExtensions = async (request) => {
		requests.push(request);
		const result: LoadExtensionsResult = { extensions: [], errors: [], runtime: { generation: request.generation } };
		for (const item of request.items) {
			loadedPaths.push(item.path);
			const name = item.path.split("/").pop() as string;
			const spec = registrations[name] ?? registrations[item.path] ?? {};
			if (spec.fails) {
				result.errors.push({ path: item.path, error: `Failed to load extension: ${spec.fails}` });
				continue;
			}
			const extension: LoadedExtension = {
				path: item.path,
				resolvedPath: item.path,
				tools: new Map((spec.tools ?? []).map((tool) => [tool, {}])),
				commands: new Map((spec.commands ?? []).map((command) => [command, {}])),
				flags: new Map((spec.flags ?? []).map((flag) => [flag, {}])),
			};
			result.extensions.push(extension);
		}
		return result;
	};
	return { load, requests, loadedPaths };
}

/**
 * A stand-in for npm backed by a registry (name -> latest version), run as `node <script>`:
 * `view <spec> version --json` prints the version (or never answers for "hang"); `install <specs...> --prefix <root>` installs
 * each as a package with one extension; a name missing from the registry fails like a 404;
 * `uninstall` only records its call. Every call's arguments are recorded in order.
 */
export function fakeNpm(dir: string, registry: Record<string, string>) {
	const script = write(
		join(dir, "fake-npm.mjs"),
		`import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
const args = process.argv.slice(2);
appendFileSync(new URL("./calls.log", import.meta.url), JSON.stringify(args) + "\\n");
const registry = JSON.parse(readFileSync(new URL("./registry.json", import.meta.url), "utf8"));
const nameOf = (spec) => spec.replace(/^(@?[^@]+)(@.*)?$/, "$1");
if (args[0] === "view" && registry[nameOf(args[1])] === "hang") {
	// An unreachable registry: the lookup never answers.
	setInterval(() => {}, 1000);
} else if (args[0] === "view") {
	process.stdout.write(JSON.stringify(registry[nameOf(args[1])]));
} else if (args[0] === "install") {
	const root = args[args.indexOf("--prefix") + 1];
	for (const spec of args.slice(1, args.indexOf("--prefix"))) {
		const name = nameOf(spec);
		if (!registry[name]) {
			process.stderr.write("404 Not Found: " + name);
			process.exit(1);
		}
		const pkg = join(root, "node_modules", ...name.split("/"));
		mkdirSync(join(pkg, "extensions"), { recursive: true });
		writeFileSync(join(pkg, "package.json"), JSON.stringify({ name, version: registry[name] }));
		writeFileSync(join(pkg, "extensions", "index.ts"), "export default () => {};");
	}
}
`,
	);
	writeJson(join(dir, "registry.json"), registry);
	const log = join(dir, "calls.log");
	const calls = (): string[][] =>
		existsSync(log)
			? readFileSync(log, "utf8")
					.trim()
					.split("\n")
					.map((line) => JSON.parse(line) as string[])
			: [];
	return { npmCommand: [process.execPath, script], calls };
}

/** Whether a git binary is on PATH (the git-dependent tests run only then). */
export function hasGit(): boolean {
	try {
		execFileSync("git", ["--version"], { stdio: "ignore" });
		return true;
	} catch {
		return false;
	}
}

/** Runs git in `cwd` with a fixed identity; returns its trimmed stdout. */
export function git(cwd: string, ...args: string[]): string {
	return execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], {
		cwd,
		encoding: "utf8",
		stdio: ["ignore", "pipe", "ignore"],
	}).trim();
}
