import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../bin/mock-llm.js", import.meta.url));
const distEntry = fileURLToPath(new URL("../dist/index.js", import.meta.url));
let dir: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), "tau-mock-llm-"));
});
afterAll(() => {
	for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
	rmSync(dir, { recursive: true, force: true });
});

function writeScenario(name: string, scenario: unknown): string {
	const file = join(dir, name);
	writeFileSync(file, JSON.stringify(scenario));
	return file;
}

function run(args: string[]) {
	const child = spawn(process.execPath, [bin, ...args], { stdio: "pipe" });
	children.push(child);
	let stdout = "";
	let stderr = "";
	child.stdout.on("data", (chunk: Buffer) => {
		stdout += chunk.toString();
	});
	child.stderr.on("data", (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
	const baseUrl = new Promise<string>((resolve, reject) => {
		child.stdout.on("data", () => {
			const newline = stdout.indexOf("\n");
			if (newline >= 0) resolve(stdout.slice(0, newline));
		});
		exited.then(() => reject(new Error(`mock-llm exited before printing its URL: ${stderr}`)));
	});
	// Runs that are expected to fail never await the URL.
	baseUrl.catch(() => undefined);
	return { child, baseUrl, exited, output: () => ({ stdout, stderr }) };
}

describe("mock-llm CLI", () => {
	beforeAll(() => {
		expect(existsSync(distEntry), `${distEntry} is missing: run \`npx tsc -b packages/testkit\` first`).toBe(true);
	});

	it("prints its base URL, serves the scenario's replies in order, and exits on SIGTERM", async () => {
		const scenario = writeScenario("once.json", [{ text: "first" }, { thinking: "hm", text: "second" }]);
		const cli = run(["--scenario", scenario]);
		const baseUrl = await cli.baseUrl;
		expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		const client = new Anthropic({ apiKey: "k", baseURL: baseUrl, maxRetries: 0 });
		const params = { model: "m", max_tokens: 10, messages: [{ role: "user" as const, content: "hi" }] };
		const first = await client.messages.stream(params).finalMessage();
		const second = await client.messages.stream(params).finalMessage();
		expect(first.content).toEqual([{ type: "text", text: "first" }]);
		expect(second.content.map((block) => block.type)).toEqual(["thinking", "text"]);
		const exhausted = await client.messages.create(params).catch((e: unknown) => e);
		expect(exhausted).toBeInstanceOf(Anthropic.InternalServerError);
		cli.child.kill("SIGTERM");
		expect(await cli.exited).toBe(0);
	});

	it("cycles replies with repeat, checks the API key, and exits when its stdin pipe closes", async () => {
		const scenario = writeScenario("repeat.json", { replies: [{ text: "a" }, { text: "b" }], repeat: true });
		const cli = run(["--scenario", scenario, "--api-key", "sk-cli"]);
		const client = new OpenAI({ apiKey: "sk-cli", baseURL: `${await cli.baseUrl}/v1`, maxRetries: 0 });
		const texts = [];
		for (let i = 0; i < 3; i++) {
			const completion = await client.chat.completions.create({ model: "m", messages: [] });
			texts.push(completion.choices[0]?.message.content);
		}
		expect(texts).toEqual(["a", "b", "a"]);
		const wrong = new OpenAI({ apiKey: "sk-other", baseURL: `${await cli.baseUrl}/v1`, maxRetries: 0 });
		await expect(wrong.chat.completions.create({ model: "m", messages: [] })).rejects.toBeInstanceOf(
			OpenAI.AuthenticationError,
		);
		cli.child.stdin.end();
		expect(await cli.exited).toBe(0);
	});

	it("exits when its lifetime ends", async () => {
		const scenario = writeScenario("idle.json", { replies: [], idleTimeoutMs: 1 });
		const cli = run(["--scenario", scenario]);
		await cli.baseUrl;
		expect(await cli.exited).toBe(0);
	});

	it("fails with exit code 2 and usage when the scenario is missing or invalid", async () => {
		const missing = run([]);
		expect(await missing.exited).toBe(2);
		expect(missing.output().stderr).toContain("--scenario is required");
		const invalid = run(["--scenario", writeScenario("bad.json", { turns: 3 })]);
		expect(await invalid.exited).toBe(2);
		expect(invalid.output().stderr).toContain('"replies"');
		const unreadable = run(["--scenario", join(dir, "absent.json")]);
		expect(await unreadable.exited).toBe(2);
		expect(unreadable.output().stderr).toContain("cannot read scenario");
	});
});
