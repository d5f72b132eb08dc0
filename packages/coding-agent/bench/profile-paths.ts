// CPU profiles of the headless paths issue 22 measures (headless-scenarios.ts), one summary per path
// and CLI checked in under bench/profiles/<label>/ (bench/profiles/README.md). Each path runs against
// the mock LLM server in a fresh temp HOME (cli-harness.ts), once to warm Node's compile cache and
// once under `node --cpu-prof`; scripts/bench/cpu-profile-summary.mjs summarizes the profile.
// Started by scripts/bench/profile-paths.mjs, which parses the options.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { baselineContender } from "./baseline.js";
import { type Contender, makeBox, type RunCost, runCli, withServer } from "./cli-harness.js";
import { SCENARIOS, type Scenario } from "./headless-scenarios.js";
import { referenceContenders } from "./reference-pi.js";

const REPO = resolve(import.meta.dirname, "../../..");
const BUNDLE = "packages/coding-agent/dist/bundle/cli.js";
const SUMMARY = join(REPO, "scripts/bench/cpu-profile-summary.mjs");
const OUT = join(import.meta.dirname, "profiles");
/**
 * A gzipped profile is checked in beside its summary when at most this large (they are 5–60 KB at the
 * default interval), for a call tree the summary does not show (Chrome DevTools, speedscope).
 */
const GZIP_LIMIT = 300 * 1024;

export interface ProfileOptions {
	/** The CLI to profile; this checkout's bundle when unset. */
	cli?: string;
	/** Names the summaries' folder, bench/profiles/<label>/. */
	label: string;
	/** Also profile tau at this git ref (built as the compare benchmark builds it), into bench/profiles/<label>/. */
	baseline?: { ref: string; label: string };
	/** Rebundle each CLI with `--no-minify` first (readable names) and minified again afterwards. */
	unminified: boolean;
	/** Keep the raw `.cpuprofile` files under this folder (a temp folder, removed at the end, when unset). */
	keepRaw?: string;
	/** `--cpu-prof-interval`, in microseconds. */
	intervalUs: number;
	/** Rows per table of the summary. */
	rows: number;
	/** Only these paths (file names without `.txt`). */
	only?: readonly string[];
}

interface ProfiledPath {
	/** The summary's file name, without `.txt`. */
	slug: string;
	scenario: Scenario;
	/** Run on the Node running this script (the Node 20 row) instead of Node 22. */
	onThisNode?: boolean;
}

interface Target {
	label: string;
	/** What the header names: a commit or the CLI's path. */
	version: string;
	contender: Contender;
	/** The checkout the bundle was built in, when it is one (to rebundle it). */
	root?: string;
}

const scenario = (name: string): Scenario => {
	const found = SCENARIOS.find((candidate) => candidate.name === name);
	if (!found) throw new Error(`no headless scenario named ${name}`);
	return found;
};

function profiledPaths(): ProfiledPath[] {
	const oneShot = scenario('-p "hi", session written');
	const paths: ProfiledPath[] = [
		{ slug: "version", scenario: scenario("--version") },
		{ slug: "p-hi-node22", scenario: oneShot },
		{ slug: `p-hi-node${process.versions.node.split(".")[0]}`, scenario: oneShot, onThisNode: true },
		{ slug: "tool-loop", scenario: scenario("20 tool calls + answer (json)") },
		{ slug: "stream-200k", scenario: scenario("200k-token stream (json)") },
		{ slug: "write-500kb", scenario: scenario("500 KB write argument in deltas (json)") },
	];
	// On Node 22 itself the second one-shot would repeat the first.
	return process.versions.node.startsWith("22.") ? paths.filter((path) => !path.onThisNode) : paths;
}

const git = (args: readonly string[]) => execFileSync("git", args, { cwd: REPO, encoding: "utf8" }).trim();

function targets(options: ProfileOptions, node: string): Target[] {
	const cli = resolve(options.cli ?? join(REPO, BUNDLE));
	const checkout = cli.endsWith(BUNDLE) ? cli.slice(0, -BUNDLE.length - 1) : undefined;
	const list: Target[] = [
		{
			label: options.label,
			version: options.cli ? cli : `${git(["rev-parse", "--short", "HEAD"])} (this checkout)`,
			contender: { label: options.label, node, cli },
			root: checkout && existsSync(join(checkout, "scripts/bundle-cli.mjs")) ? checkout : undefined,
		},
	];
	if (options.baseline) {
		process.env.TAU_BENCH_BASELINE = options.baseline.ref;
		const baseline = baselineContender(node);
		if ("skipped" in baseline) throw new Error(baseline.skipped);
		const { cli: baselineCli } = baseline.contender;
		list.push({
			label: options.baseline.label,
			version: git(["rev-parse", "--short", `${options.baseline.ref}^{commit}`]),
			contender: { label: options.baseline.label, node, cli: baselineCli },
			root: baselineCli.endsWith(BUNDLE) ? baselineCli.slice(0, -BUNDLE.length - 1) : undefined,
		});
	}
	return list;
}

function bundle(target: Target, minify: boolean): void {
	if (!target.root) throw new Error(`${target.contender.cli} is not a bundle built by scripts/bundle-cli.mjs`);
	console.error(`profiles: bundling ${target.label}${minify ? "" : " unminified"} in ${target.root}`);
	const args = ["scripts/bundle-cli.mjs", ...(minify ? [] : ["--no-minify"])];
	execFileSync(process.execPath, args, { cwd: target.root, stdio: "inherit" });
}

/** Runs one path once to warm up, once under the profiler; returns the profile's file and the run's cost. */
async function profileOnce(
	contender: Contender,
	path: ProfiledPath,
	dir: string,
	intervalUs: number,
): Promise<{ file: string; cost: RunCost }> {
	rmSync(dir, { recursive: true, force: true });
	const profiled = {
		...contender,
		nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${intervalUs}`],
	};
	const cost = await withServer(async (server) => {
		const box = makeBox(server);
		try {
			path.scenario.setup?.(box.project);
			server.enqueue(...path.scenario.replies());
			await runCli(contender, box, path.scenario.args);
			server.enqueue(...path.scenario.replies());
			return await runCli(profiled, box, path.scenario.args);
		} finally {
			rmSync(box.home, { recursive: true, force: true });
		}
	});
	const files = readdirSync(dir).filter((name) => name.endsWith(".cpuprofile"));
	if (files.length !== 1) throw new Error(`expected one profile in ${dir}, found ${files.length}`);
	return { file: join(dir, files[0] as string), cost };
}

interface Profiled {
	target: Target;
	/** The contender that ran: the target's, or the same CLI on this Node. */
	contender: Contender;
	path: ProfiledPath;
	file: string;
	cost: RunCost;
}

function summarize({ target, contender, path, file, cost }: Profiled, options: ProfileOptions): string {
	const summary = execFileSync(process.execPath, [SUMMARY, file, String(options.rows)], {
		encoding: "utf8",
		maxBuffer: 16 * 1024 * 1024,
	}).replace(file, `${path.slug}.cpuprofile`);
	const nodeVersion = execFileSync(contender.node, ["--version"], { encoding: "utf8" }).trim();
	const header = [
		`${path.scenario.name}: tau ${target.label}, ${target.version}, node ${nodeVersion}`,
		`tau ${path.scenario.args.join(" ")} against the mock LLM server; one run after a warm-up run,`,
		`--cpu-prof-interval ${options.intervalUs} us, ${options.unminified ? "unminified bundle" : "bundle as built"}.`,
		`That run under the profiler: ${cost.cpuMs.toFixed(0)} ms CPU, ${cost.wallMs.toFixed(0)} ms wall (a loaded machine:`,
		"compare shares within a profile, not milliseconds across profiles). Regenerate: bench/profiles/README.md.",
	];
	return `${header.join("\n")}\n\n${summary}`;
}

function keepGzipped(file: string, to: string): void {
	const packed = gzipSync(readFileSync(file), { level: 9 });
	if (packed.length <= GZIP_LIMIT) {
		writeFileSync(to, packed);
		return;
	}
	rmSync(to, { force: true });
	console.error(`profiles: ${to} left out, ${Math.round(packed.length / 1024)} KB gzipped`);
}

export async function profilePaths(options: ProfileOptions): Promise<void> {
	const reference = referenceContenders(join(REPO, BUNDLE));
	if ("skipped" in reference) throw new Error(`profiles need pi's Node 22 (${reference.skipped})`);
	const node22 = (reference.contenders[0] as Contender).node;
	const list = targets(options, node22);
	const paths = profiledPaths().filter((path) => !options.only || options.only.includes(path.slug));
	const raw = options.keepRaw ? resolve(options.keepRaw) : mkdtempSync(join(tmpdir(), "tau-profiles-"));
	const rebundled: Target[] = [];
	try {
		if (options.unminified) {
			for (const target of list) {
				rebundled.push(target);
				bundle(target, false);
			}
		}
		// Path by path, the CLIs alternate, so a drifting machine load affects them alike.
		for (const path of paths) {
			for (const target of list) {
				const contender = path.onThisNode ? { ...target.contender, node: process.execPath } : target.contender;
				const { file, cost } = await profileOnce(
					contender,
					path,
					join(raw, target.label, path.slug),
					options.intervalUs,
				);
				const out = join(OUT, target.label);
				mkdirSync(out, { recursive: true });
				const summary = summarize({ target, contender, path, file, cost }, options);
				writeFileSync(join(out, `${path.slug}.txt`), summary);
				keepGzipped(file, join(out, `${path.slug}.cpuprofile.gz`));
				console.error(`profiles: ${target.label}/${path.slug}.txt (${cost.cpuMs.toFixed(0)} ms CPU)`);
			}
		}
	} finally {
		for (const target of rebundled) bundle(target, true);
		if (!options.keepRaw) rmSync(raw, { recursive: true, force: true });
	}
}
