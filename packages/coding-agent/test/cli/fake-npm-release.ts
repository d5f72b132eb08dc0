import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";

export interface FakeRelease {
	/** What `npm view <name> version --json` answers; `undefined` makes the lookup fail. */
	latest?: string;
	/** What `npm prefix -g` answers. */
	prefix?: string;
}

const SCRIPT = `import { appendFileSync, readFileSync } from "node:fs";
const args = process.argv.slice(2);
const here = (name) => new URL("./" + name, import.meta.url);
appendFileSync(here("calls.log"), JSON.stringify(args) + "\\n");
const state = JSON.parse(readFileSync(here("state.json"), "utf8"));
if (args[0] === "view") {
	if (state.latest === undefined) {
		process.stderr.write("npm error code ENOTFOUND\\n");
		process.exit(1);
	}
	process.stdout.write(JSON.stringify(state.latest) + "\\n");
} else if (args[0] === "prefix") {
	process.stdout.write((state.prefix ?? "/nonexistent-npm-prefix") + "\\n");
} else if (args[0] === "fail") {
	process.stderr.write("disk full\\n");
	process.exit(3);
}
`;

/**
 * A stand-in for npm (and for a custom self-update command): a node script that records each argv
 * and answers `view` and `prefix -g` from a state file. It never touches the network or real npm.
 */
export function fakeNpmRelease(release: FakeRelease) {
	const dir = mkdtempSync(join(tmpdir(), "tau-fake-npm-"));
	onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
	const script = join(dir, "fake-npm.mjs");
	writeFileSync(script, SCRIPT);
	writeFileSync(join(dir, "state.json"), JSON.stringify(release));
	const log = join(dir, "calls.log");
	return {
		dir,
		/** For the `npmCommand` setting. */
		npmCommand: [process.execPath, script],
		/** The script as a whitespace-separated command line (`TAU_SELF_UPDATE_COMMAND`). */
		commandLine: (...args: string[]) => [process.execPath, script, ...args].join(" "),
		calls: (): string[][] =>
			existsSync(log)
				? readFileSync(log, "utf8")
						.trim()
						.split("\n")
						.map((line) => JSON.parse(line) as string[])
				: [],
	};
}
