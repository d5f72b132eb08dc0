import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import {
	captureIO,
	evalRunArgs,
	SUITE_SCRIPTS,
	scriptedServer,
	TURN_COST,
	TURN_TOKENS,
	tempDir,
	userAgentDir,
	writeSuite,
	writeTask,
} from "./eval-fixtures.js";

const savedAgentDir = process.env.TAU_CODING_AGENT_DIR;
afterEach(() => {
	if (savedAgentDir === undefined) delete process.env.TAU_CODING_AGENT_DIR;
	else process.env.TAU_CODING_AGENT_DIR = savedAgentDir;
});

interface Spread {
	mean: number;
	stddev: number;
	min: number;
	max: number;
}
interface TaskFigures {
	task: string;
	trials: number;
	passes: number;
	infraErrors: number;
	passAt: Record<string, number>;
	passHat: Record<string, number>;
	reward: Spread;
	cost: Spread;
	tokens: number;
}

function readJson<T>(path: string): T {
	return JSON.parse(readFileSync(path, "utf8")) as T;
}

function readRecords(out: string) {
	return readFileSync(join(out, "trials.jsonl"), "utf8")
		.trim()
		.split("\n")
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

// Each trial is a real agent run with a verifier process: dozens of them on a machine shared with other tests.
describe("tau eval run", { timeout: 120_000 }, () => {
	let settings: string;
	let suite: string;

	beforeEach(async () => {
		const server = await scriptedServer(SUITE_SCRIPTS);
		const user = userAgentDir(server);
		process.env.TAU_CODING_AGENT_DIR = user.agentDir;
		settings = user.settings;
		suite = writeSuite();
	});

	it("records every trial and summarizes pass@k, pass^k, reward, cost and tokens exactly as computed by hand", async () => {
		const out = tempDir("out");
		const { io, out: captured } = captureIO();
		const code = await main(evalRunArgs(suite, settings, out, "-k", "4"), io);
		expect(captured.stderr).toContain("PASS alpha #0");
		expect(code).toBe(0);

		const records = readRecords(out);
		expect(records).toHaveLength(12);
		const beta3 = records.find((record) => record.task === "beta" && record.trial === 3);
		expect(beta3).toMatchObject({ outcome: "infra_error", pass: false, reward: 0 });
		expect(String(beta3?.error)).toContain("provider error");
		const gamma1 = records.find((record) => record.task === "gamma" && record.trial === 1);
		expect(gamma1).toMatchObject({ outcome: "infra_error", pass: false });
		expect(String(gamma1?.error)).toContain("verifier crashed");
		const alpha0 = records.find((record) => record.task === "alpha" && record.trial === 0);
		expect(alpha0).toMatchObject({ outcome: "pass", reward: 1, turns: 2, toolCalls: 1, stopReason: "stop" });
		expect(alpha0?.tokens).toEqual({ input: 200, output: 20, cacheRead: 0, cacheWrite: 0, total: 2 * TURN_TOKENS });
		expect(alpha0?.cost).toBeCloseTo(2 * TURN_COST, 10);
		expect(existsSync(join(out, String(alpha0?.sessionFile)))).toBe(true);
		expect(typeof alpha0?.durationMs).toBe("number");

		const summary = readJson<{
			overall: TaskFigures & { scoredTasks: number; totalCost: number };
			tasks: TaskFigures[];
		}>(join(out, "summary.json"));
		const [alpha, beta, gamma] = summary.tasks;
		// alpha: n=4, c=2.
		expect(alpha).toMatchObject({ task: "alpha", trials: 4, passes: 2, infraErrors: 0 });
		expectFigures(alpha!.passAt, { 1: 0.5, 2: 5 / 6, 3: 1, 4: 1 });
		expectFigures(alpha!.passHat, { 1: 0.5, 2: 1 / 6, 3: 0, 4: 0 });
		expect(alpha!.reward.mean).toBeCloseTo(0.5, 10);
		expect(alpha!.reward.stddev).toBeCloseTo(Math.sqrt(1 / 3), 10);
		// beta: the outage is counted apart, leaving n=3, c=1.
		expect(beta).toMatchObject({ task: "beta", trials: 3, passes: 1, infraErrors: 1 });
		expectFigures(beta!.passAt, { 1: 1 / 3, 2: 2 / 3, 3: 1 });
		expectFigures(beta!.passHat, { 1: 1 / 3, 2: 0, 3: 0 });
		expect(beta!.cost.mean).toBeCloseTo((3 * 2 * TURN_COST) / 4, 10);
		expect(beta!.tokens).toBe(3 * 2 * TURN_TOKENS);
		// gamma: rewards 1, 0.5, 1 (the crash is an infrastructure error); 0.5 is not a pass.
		expect(gamma).toMatchObject({ task: "gamma", trials: 3, passes: 2, infraErrors: 1 });
		expectFigures(gamma!.passAt, { 1: 2 / 3, 2: 1, 3: 1 });
		expectFigures(gamma!.passHat, { 1: 2 / 3, 2: 1 / 3, 3: 0 });
		expect(gamma!.reward.mean).toBeCloseTo(2.5 / 3, 10);
		expect(gamma!.reward.stddev).toBeCloseTo(Math.sqrt(1 / 12), 10);
		expect(gamma!.reward.min).toBe(0.5);

		// Overall: the mean over tasks, for k up to the fewest counted trials (3).
		expect(summary.overall).toMatchObject({ tasks: 3, scoredTasks: 3, trials: 10, passes: 5, infraErrors: 2 });
		expectFigures(summary.overall.passAt, { 1: 0.5, 2: (5 / 6 + 2 / 3 + 1) / 3, 3: 1 });
		expectFigures(summary.overall.passHat, { 1: 0.5, 2: (1 / 6 + 0 + 1 / 3) / 3, 3: 0 });
		expect(summary.overall.reward.mean).toBeCloseTo(5.5 / 10, 10);
		expect(summary.overall.totalCost).toBeCloseTo(11 * 2 * TURN_COST, 10);
		expect(summary.overall.tokens).toBe(11 * 2 * TURN_TOKENS);
		expect(captured.stdout).toContain("overall");
	});

	it("hides tests/ and solution/ from the agent: a trial searching the disk around it finds nothing", async () => {
		const snoopSuite = tempDir("snoop-suite");
		// A marker unique to this run, so leftovers of other runs in the temp dir never match.
		const marker = `SNOOP-${randomUUID()}`;
		writeTask(snoopSuite, "snoop", { test: `exit 0 # ${marker}`, solve: `true # ${marker}` });
		const out = tempDir("snoop-out");
		// The run directory (other trials, staged verifiers) and every tau eval temp dir but the suite itself.
		const search = [
			`find ${out} -name test.sh -o -name solve.sh -o -name tests -o -name solution`,
			`grep -rl --include=*.sh ${marker} ${tmpdir()}/tau-eval-* 2>/dev/null | grep -v ${snoopSuite}`,
			"ls -a",
			"echo SEARCHED",
		].join("; ");
		const results: string[] = [];
		const server = await scriptedServer({ "snoop#0": { tool: "bash", command: search } }, (_trial, request) => {
			const messages = (request.body as { messages: Array<{ content: unknown }> }).messages;
			results.push(JSON.stringify(messages.at(-1)?.content));
		});
		const user = userAgentDir(server);
		process.env.TAU_CODING_AGENT_DIR = user.agentDir;
		const { io } = captureIO();
		const code = await main(evalRunArgs(snoopSuite, user.settings, out), io);
		expect(code).toBe(0);
		const toolResult = results.find((text) => text.includes("SEARCHED"));
		expect(toolResult).toBeDefined();
		expect(toolResult).toContain("notes.md");
		expect(toolResult).not.toContain("test.sh");
		expect(toolResult).not.toContain("solve.sh");
		// The verifier did run afterwards, with the tests staged for it.
		expect(readRecords(out)[0]).toMatchObject({ outcome: "pass" });
	});

	it("gives each trial a fresh workspace and agent dir; credentials come from the user's auth.json, never copied", async () => {
		const server = await scriptedServer(SUITE_SCRIPTS);
		const user = userAgentDir(server, { keyIn: "auth.json" });
		process.env.TAU_CODING_AGENT_DIR = user.agentDir;
		const out = tempDir("fresh-out");
		const { io, out: captured } = captureIO();
		const args = evalRunArgs(suite, user.settings, out, "-k", "2", "--filter", "alph*");
		args[args.indexOf("mock/mock-model")] = "anthropic/claude-sonnet-4-5";
		expect(await main(args, io), captured.stderr).toBe(0);
		const records = readRecords(out);
		expect(records.map((record) => [record.task, record.outcome])).toEqual([
			["alpha", "pass"],
			["alpha", "fail"],
		]);
		for (const trial of ["0", "1"]) {
			const dir = join(out, "trials", "alpha", trial);
			expect(readFileSync(join(dir, "workspace", "notes.md"), "utf8")).toBe("Notes for alpha.\n");
			expect(existsSync(join(dir, "workspace", "tests"))).toBe(false);
			expect(existsSync(join(dir, "agent", "models.json"))).toBe(true);
			expect(existsSync(join(dir, "agent", "auth.json"))).toBe(false);
			expect(readJson(join(dir, "agent", "settings.json"))).toEqual({ retry: { enabled: false } });
		}
		expect(readFileSync(join(out, "trials", "alpha", "0", "workspace", "answer.txt"), "utf8")).toBe("42");
		expect(readFileSync(join(out, "trials", "alpha", "1", "workspace", "answer.txt"), "utf8")).toBe("41");
	});

	it("loads only the extensions and skills named on the command line, never the user's own", async () => {
		const setup = tempDir("setup");
		const writer = (file: string) =>
			`import { writeFileSync } from "node:fs";\nimport { join } from "node:path";\nexport default function (pi: any) {\n\tpi.on("session_start", (_event: unknown, ctx: { cwd: string }) => writeFileSync(join(ctx.cwd, "${file}"), "yes"));\n}\n`;
		writeFileSync(join(setup, "named.ts"), writer("named-extension.txt"));
		mkdirSync(join(setup, "skills", "tidy-files"), { recursive: true });
		writeFileSync(
			join(setup, "skills", "tidy-files", "SKILL.md"),
			"---\nname: tidy-files\ndescription: Keeps files tidy.\n---\nTidy up.\n",
		);
		const systemPrompts: string[] = [];
		const server = await scriptedServer({ "alpha#0": SUITE_SCRIPTS["alpha#0"]! }, (_trial, request) =>
			systemPrompts.push(JSON.stringify((request.body as { system?: unknown }).system)),
		);
		const user = userAgentDir(server);
		mkdirSync(join(user.agentDir, "extensions"), { recursive: true });
		writeFileSync(join(user.agentDir, "extensions", "users-own.ts"), writer("users-extension.txt"));
		process.env.TAU_CODING_AGENT_DIR = user.agentDir;
		const out = tempDir("setup-out");
		const named = ["-e", join(setup, "named.ts"), "--skill", join(setup, "skills", "tidy-files")];
		const args = evalRunArgs(suite, user.settings, out, "--filter", "alpha", ...named);
		expect(await main(args, captureIO().io)).toBe(0);
		const workspace = join(out, "trials", "alpha", "0", "workspace");
		expect(existsSync(join(workspace, "named-extension.txt"))).toBe(true);
		expect(existsSync(join(workspace, "users-extension.txt"))).toBe(false);
		expect(systemPrompts[0]).toContain("tidy-files");
		const config = JSON.parse(readFileSync(join(out, "run.json"), "utf8"));
		expect(config.setup).toMatchObject({
			extensions: [join(setup, "named.ts")],
			skills: [join(setup, "skills", "tidy-files")],
		});
	});

	it("ends a trial whose agent runs out of time (--timeout) and still lets the verifier judge it", async () => {
		const server = await scriptedServer({ "alpha#0": { stall: true } });
		const user = userAgentDir(server);
		process.env.TAU_CODING_AGENT_DIR = user.agentDir;
		const out = tempDir("timeout-out");
		const args = evalRunArgs(suite, user.settings, out, "--filter", "alpha", "--timeout", "1");
		expect(await main(args, captureIO().io)).toBe(0);
		expect(readRecords(out)[0]).toMatchObject({ outcome: "fail", stopReason: "timeout", reward: 0 });
	});
});

function expectFigures(actual: Record<string, number>, expected: Record<number, number>): void {
	expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
	for (const [k, value] of Object.entries(expected)) expect(actual[k], `k=${k}`).toBeCloseTo(value, 10);
}
