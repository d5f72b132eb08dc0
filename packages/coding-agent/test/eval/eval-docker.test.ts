import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import { captureIO, scriptedServer, TURN_USAGE, tempDir, userAgentDir, writeTask } from "./eval-fixtures.js";

const here = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(here, "../../../..");
const saved = {
	agentDir: process.env.TAU_CODING_AGENT_DIR,
	path: process.env.PATH,
	root: process.env.FAKE_DOCKER_ROOT,
};
afterEach(() => {
	for (const [name, value] of [
		["TAU_CODING_AGENT_DIR", saved.agentDir],
		["PATH", saved.path],
		["FAKE_DOCKER_ROOT", saved.root],
	] as const) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
});

function dockerTask(suite: string, name: string, extra: Record<string, string> = {}): void {
	const dir = writeTask(suite, name, {
		test: '[ "$(cat greeting.txt 2>/dev/null)" = "hello" ] && echo 1 > "$LOGS_DIR/verifier/reward.txt" || echo 0 > "$LOGS_DIR/verifier/reward.txt"',
		solve: "echo hello > greeting.txt",
	});
	writeFileSync(join(dir, "environment", "Dockerfile"), "FROM debian:bookworm-slim\nWORKDIR /app\nCOPY . /app\n");
	for (const [file, text] of Object.entries(extra)) writeFileSync(join(dir, "environment", file), text);
}

describe("tau eval: docker backend through a fake docker CLI", () => {
	it("builds the image once, runs tools in the container via exec, mounts /logs and copies tests/ in only for the verifier", async () => {
		const fakeRoot = tempDir("fake-docker");
		const bin = join(fakeRoot, "bin");
		mkdirSync(bin);
		symlinkSync(join(here, "fake-docker.mjs"), join(bin, "docker"));
		process.env.PATH = `${bin}:${process.env.PATH}`;
		process.env.FAKE_DOCKER_ROOT = fakeRoot;
		const suite = tempDir("docker-suite");
		dockerTask(suite, "greet", { "seed.txt": "hello\n" });
		dockerTask(suite, "broken", { FAIL_BUILD: "" });
		const server = await scriptedServer({});
		// `broken` never reaches the model; greet#0 writes the file, greet#1 copies it with bash.
		server.enqueue(
			{
				toolCalls: [{ name: "write", arguments: { path: "greeting.txt", content: "hello" } }],
				stopReason: "toolUse",
				usage: TURN_USAGE,
			},
			{ text: "done", usage: TURN_USAGE },
			{
				toolCalls: [{ name: "bash", arguments: { command: "cat seed.txt > greeting.txt" } }],
				stopReason: "toolUse",
				usage: TURN_USAGE,
			},
			{ text: "done", usage: TURN_USAGE },
		);
		const user = userAgentDir(server);
		process.env.TAU_CODING_AGENT_DIR = user.agentDir;
		const out = tempDir("docker-out");
		const { io } = captureIO();
		const code = await main(
			["eval", "run", suite, "-k", "2", "--model", "mock/mock-model", "--settings", user.settings, "--out", out],
			io,
		);
		expect(code).toBe(0);
		const records = readFileSync(join(out, "trials.jsonl"), "utf8")
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line));
		expect(records.map((record) => [record.task, record.trial, record.outcome])).toEqual([
			["broken", 0, "infra_error"],
			["broken", 1, "infra_error"],
			["greet", 0, "pass"],
			["greet", 1, "pass"],
		]);
		expect(records[0].error).toContain("image failed to build");
		// The agent's cwd is the container's workdir, and its files never reach the host workspace.
		expect(JSON.stringify(server.requests[0]?.body)).toContain("/app");
		expect(existsSync(join(out, "trials", "greet", "0", "workspace"))).toBe(false);

		const calls = readFileSync(join(fakeRoot, "calls.jsonl"), "utf8")
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line) as string[]);
		const greetBuilds = calls.filter(
			(call) => call[0] === "build" && call.includes(join(suite, "greet", "environment", "Dockerfile")),
		);
		expect(greetBuilds).toHaveLength(1);
		const runs = calls.filter((call) => call[0] === "run");
		expect(runs).toHaveLength(2);
		expect(runs[0]).toContain(`${join(out, "trials", "greet", "0", "logs")}:/logs`);
		const name = runs[0]![runs[0]!.indexOf("--name") + 1]!;
		const ofFirst = calls.filter((call) => call.includes(name) || call.some((arg) => arg.startsWith(`${name}:`)));
		const writeAt = ofFirst.findIndex(
			(call) => call[0] === "exec" && call.includes('cat > "$1"') && call.includes("/app/greeting.txt"),
		);
		const copyTestsAt = ofFirst.findIndex(
			(call) => call[0] === "cp" && call[1] === join(suite, "greet", "tests") && call[2] === `${name}:/tests`,
		);
		const verifyAt = ofFirst.findIndex(
			(call) => call[0] === "exec" && call.at(-2) === "bash" && call.at(-1) === "/tests/test.sh",
		);
		expect(writeAt).toBeGreaterThanOrEqual(0);
		expect(copyTestsAt).toBeGreaterThan(writeAt);
		expect(verifyAt).toBeGreaterThan(copyTestsAt);
		expect(ofFirst.at(-1)).toEqual(["rm", "-f", name]);
		const second = runs[1]![runs[1]!.indexOf("--name") + 1]!;
		expect(calls).toContainEqual(["exec", "-i", "-w", "/app", second, "sh", "-c", "cat seed.txt > greeting.txt"]);
		// Each fake docker call is a Node process: some thirty of them on a busy machine.
	}, 120_000);
});

const engineAnswers = spawnSync("docker", ["version"], { stdio: "ignore" }).status === 0;

describe.skipIf(!engineAnswers)(
	"tau eval: docker backend with a real engine (skipped: `docker version` gets no answer from an engine)",
	() => {
		it("runs the example suite's README task in a container with the demo model", async () => {
			const out = tempDir("real-docker");
			process.env.TAU_CODING_AGENT_DIR = tempDir("real-docker-agent");
			const { io, out: captured } = captureIO();
			const code = await main(
				[
					"eval",
					"run",
					join(REPO_ROOT, "examples", "eval", "suite"),
					"--filter",
					"summarize-readme",
					"--model",
					"demo/offline",
					"--backend",
					"docker",
					"--out",
					out,
				],
				io,
			);
			expect(code, captured.stderr).toBe(0);
			expect(readFileSync(join(out, "trials.jsonl"), "utf8")).toContain('"outcome":"pass"');
		}, 600_000);
	},
);
