import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { AgentToolResult } from "@tau/agent";
import { type BashOperations, type BashToolDetails, createBashTool, createBashToolDefinition } from "@tau/coding-agent";
import { afterEach, describe, expect, it, vi } from "vitest";
import { waitUntilDead } from "../support/processes.js";
import { tempDir, textOf, toolContext } from "./helpers.js";

type Structured = {
	output: string;
	truncated: boolean;
	full_output_path?: string;
	exit_code: number;
	wall_time_seconds: number;
};
const structured = (result: AgentToolResult<unknown>) => result.structuredContent as Structured;

function run(command: string, options: Parameters<typeof createBashTool>[1] = {}, timeout?: number) {
	const dir = tempDir();
	const tool = createBashTool(dir, options);
	return tool.execute("call", timeout === undefined ? { command } : { command, timeout });
}

/** Fake backend streaming the given chunks, then exiting with `exitCode`. */
function scripted(chunks: (string | Buffer)[], exitCode: number | null = 0): BashOperations {
	return {
		async exec(_command, _cwd, { onData }) {
			for (const chunk of chunks) onData(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
			return { exitCode };
		},
	};
}

describe("bash: results", () => {
	it("returns output with no details on success, and structured content for scripts", async () => {
		const result = await run("echo hello; echo oops >&2");
		expect(textOf(result)).toBe("hello\noops\n");
		expect(result.details).toBeUndefined();
		expect(result.isError).toBeUndefined();
		expect(structured(result)).toMatchObject({ output: "hello\noops\n", truncated: false, exit_code: 0 });
		expect(structured(result).wall_time_seconds).toBeGreaterThanOrEqual(0);
	});

	it("reports a non-zero exit as an error result that keeps structured content", async () => {
		const result = await run("echo partial; exit 3");
		expect(result.isError).toBe(true);
		expect(textOf(result)).toBe("partial\n\n\nCommand exited with code 3");
		expect(structured(result).exit_code).toBe(3);
		const silent = await run("exit 4");
		expect(textOf(silent)).toBe("(no output)\n\nCommand exited with code 4");
	});

	it("says (no output) for a silent success", async () => {
		expect(textOf(await run("true"))).toBe("(no output)");
	});

	it("keeps the last 2000 lines of long output and saves the full output to a private file", async () => {
		const result = await run("seq 1 3000");
		const text = textOf(result);
		const details = result.details as BashToolDetails;
		expect(details.fullOutputPath).toMatch(/tau-bash-[0-9a-f]{16}\.log$/);
		expect(text.startsWith("1001\n")).toBe(true);
		expect(text).toContain(`3000\n\n[Showing lines 1001-3000 of 3000. Full output: ${details.fullOutputPath}]`);
		expect(details.truncation?.truncatedBy).toBe("lines");
		const path = details.fullOutputPath as string;
		expect(readFileSync(path, "utf8")).toBe(`${Array.from({ length: 3000 }, (_, i) => i + 1).join("\n")}\n`);
		expect(statSync(path).mode & 0o777).toBe(0o600);
	});

	it("shows only the end of a single 200KB line", async () => {
		const result = await run("head -c 204800 /dev/zero | tr '\\0' 'a'");
		const details = result.details as BashToolDetails;
		expect(textOf(result)).toBe(
			`${"a".repeat(51200)}\n\n[Showing last 50.0KB of line 1 (line is 200.0KB). Full output: ${details.fullOutputPath}]`,
		);
	});

	it("applies the command prefix before the command", async () => {
		expect(textOf(await run("echo $GREETING", { commandPrefix: "GREETING=prefixed" }))).toBe("prefixed\n");
	});

	it("decodes output split inside a character and replaces invalid bytes", async () => {
		const euro = Buffer.from("€");
		const ops = scripted([euro.subarray(0, 1), euro.subarray(1), Buffer.from([0xff, 0x0a])]);
		expect(textOf(await run("ignored", { operations: ops }))).toBe("€\ufffd\n");
		const binary = await run("head -c 4096 /dev/urandom; echo; echo done");
		expect(textOf(binary).endsWith("done\n")).toBe(true);
	});

	it("keeps 1 MiB of output for scripts: head and tail halves around an omission marker", async () => {
		const mib = 1024 * 1024;
		const ops = scripted(["a".repeat(mib), "b".repeat(mib), "c".repeat(mib)]);
		const result = await run("ignored", { operations: ops });
		const data = structured(result);
		expect(data.truncated).toBe(true);
		expect(data.full_output_path).toBe((result.details as BashToolDetails).fullOutputPath);
		expect(data.output).toBe(`${"a".repeat(mib / 2)}\n[... ${2 * mib} bytes omitted ...]\n${"c".repeat(mib / 2)}`);
		expect(readFileSync(data.full_output_path as string).length).toBe(3 * mib);
	});

	it("bounds the model-facing text for very large output", async () => {
		const chunk = `${"z".repeat(1023)}\n`;
		const ops = scripted(Array.from({ length: 20 * 1024 }, () => chunk));
		const result = await run("ignored", { operations: ops });
		const details = result.details as BashToolDetails;
		expect(Buffer.byteLength(textOf(result))).toBeLessThan(52 * 1024);
		expect(details.truncation?.totalLines).toBe(20 * 1024);
		expect(statSync(details.fullOutputPath as string).size).toBe(20 * 1024 * 1024);
	});

	it("streams 10 MB from a real command into a bounded result and a complete file", async () => {
		const result = await run(
			"yes 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde | head -c 10485760",
		);
		const details = result.details as BashToolDetails;
		expect(Buffer.byteLength(textOf(result))).toBeLessThan(52 * 1024);
		expect(details.truncation?.totalLines).toBe(10485760 / 64);
		expect(statSync(details.fullOutputPath as string).size).toBe(10485760);
		expect(structured(result).output.length).toBeLessThan(1024 * 1024 + 100);
	});

	it("treats a missing exit code as a failure", async () => {
		await expect(run("ignored", { operations: scripted(["out\n"], null) })).rejects.toThrow(
			"out\n\n\nCommand terminated without an exit code",
		);
	});
});

describe("bash: timeout and abort", () => {
	it("kills the whole process group on timeout, background children included", async () => {
		const dir = tempDir();
		const pidFile = join(dir, "bg.pid");
		const tool = createBashTool(dir);
		await expect(
			tool.execute("c", { command: `sleep 100 & echo $! > ${pidFile}; echo waiting; sleep 5`, timeout: 1 }),
		).rejects.toThrow(/^waiting\n\n\nCommand timed out after 1 seconds$/);
		expect(await waitUntilDead(Number(readFileSync(pidFile, "utf8")))).toBe(true);
	});

	it("notes when the shell had exited but background processes kept the pipes open", async () => {
		const error = await run("sleep 100 &", {}, 1).catch((e: Error) => e);
		expect((error as Error).message).toMatch(
			/^Command timed out after 1 seconds\. The shell exited with code 0 after \d+\.\d seconds, but background processes kept writing until the timeout\.$/,
		);
	});

	it("kills the process group on abort and rejects with Command aborted", async () => {
		const dir = tempDir();
		const pidFile = join(dir, "bg.pid");
		const controller = new AbortController();
		const tool = createBashTool(dir);
		const running = tool.execute(
			"c",
			{ command: `sleep 100 & echo $! > ${pidFile}; echo started; wait` },
			controller.signal,
			(update) => {
				if (textOf(update).includes("started")) controller.abort();
			},
		);
		await expect(running).rejects.toThrow(/started\n\n\nCommand aborted$/);
		expect(await waitUntilDead(Number(readFileSync(pidFile, "utf8")))).toBe(true);
	});

	it("rejects a pre-aborted signal without running anything", async () => {
		const dir = tempDir();
		const tool = createBashTool(dir);
		await expect(tool.execute("c", { command: "touch ran" }, AbortSignal.abort())).rejects.toThrow("Command aborted");
		expect(existsSync(join(dir, "ran"))).toBe(false);
	});

	it("validates the timeout", async () => {
		for (const timeout of [0, -1, Number.NaN]) {
			await expect(run("true", {}, timeout)).rejects.toThrow("Invalid timeout: must be a finite number of seconds");
		}
		await expect(run("true", {}, 3e6)).rejects.toThrow("Invalid timeout: maximum is 2147483.647 seconds");
	});

	it("maps custom backend failures to the timeout and abort messages", async () => {
		const failing = (message: string): BashOperations => ({
			async exec(_c, _cwd, { onData }) {
				onData(Buffer.from("so far\n"));
				throw new Error(message);
			},
		});
		await expect(run("x", { operations: failing("timeout:7") })).rejects.toThrow(
			"so far\n\n\nCommand timed out after 7 seconds",
		);
		await expect(run("x", { operations: failing("aborted") })).rejects.toThrow("so far\n\n\nCommand aborted");
		await expect(run("x", { operations: failing("backend down") })).rejects.toThrow("backend down");
	});
});

describe("bash: environment and hooks", () => {
	const saved = { ...process.env };
	afterEach(() => {
		for (const key of ["TAU_SESSION_ID", "TAU_MODEL", "PI_SESSION_ID"]) {
			if (saved[key] === undefined) delete process.env[key];
			else process.env[key] = saved[key];
		}
	});

	const printEnv = 'echo "$TAU_SESSION_ID|$TAU_SESSION_FILE|$TAU_PROVIDER|$TAU_MODEL|$TAU_REASONING_LEVEL"';

	it("exposes the session variables, replacing inherited values", async () => {
		process.env.TAU_SESSION_ID = "parent-session";
		process.env.TAU_MODEL = "parent-model";
		const dir = tempDir();
		const result = await createBashTool("/", { binDir: join(dir, "bin") }).execute(
			"c",
			{ command: printEnv },
			undefined,
			undefined,
			toolContext(dir),
		);
		expect(textOf(result)).toBe("session-123|/sessions/s.jsonl|faux|faux-model|medium\n");
	});

	it("sets none of them with exposeSessionEnvironment: false, and drops inherited copies", async () => {
		process.env.TAU_SESSION_ID = "parent-session";
		const dir = tempDir();
		const definition = createBashToolDefinition(dir, { exposeSessionEnvironment: false });
		expect(definition.promptGuidelines).toBeUndefined();
		const result = await definition.execute("c", { command: printEnv }, undefined, undefined, toolContext(dir));
		expect(textOf(result)).toBe("||||\n");
	});

	it("mirrors the pi names only when asked", async () => {
		process.env.PI_SESSION_ID = "inherited";
		const dir = tempDir();
		const plain = await createBashTool(dir).execute(
			"c",
			{ command: "echo $PI_SESSION_ID" },
			undefined,
			undefined,
			toolContext(dir),
		);
		expect(textOf(plain)).toBe("inherited\n");
		const mirrored = await createBashTool(dir, { mirrorPiEnvironment: true }).execute(
			"c",
			{ command: "echo $PI_SESSION_ID" },
			undefined,
			undefined,
			toolContext(dir),
		);
		expect(textOf(mirrored)).toBe("session-123\n");
	});

	it("prepends the tau bin dir to PATH", async () => {
		const dir = tempDir();
		const result = await createBashTool(dir, { binDir: "/opt/tau-bin" }).execute("c", { command: "echo $PATH" });
		expect(textOf(result).startsWith("/opt/tau-bin:")).toBe(true);
	});

	it("lets spawnHook see the session variables and rewrite command, cwd and env", async () => {
		const dir = tempDir();
		const other = tempDir();
		let seen: string | undefined;
		const tool = createBashTool(dir, {
			spawnHook: (context) => {
				seen = context.env.TAU_SESSION_ID;
				return {
					command: `${context.command}; echo "$EXTRA"; pwd`,
					cwd: other,
					env: { ...context.env, EXTRA: "hooked" },
				};
			},
		});
		const result = await tool.execute("c", { command: "echo base" }, undefined, undefined, toolContext(dir));
		expect(seen).toBe("session-123");
		expect(textOf(result)).toBe(`base\nhooked\n${other}\n`);
	});
});

describe("bash: streaming updates", () => {
	afterEach(() => {
		vi.useRealTimers();
	});

	it("sends an immediate empty update, then at most one per 100 ms, then a final one", async () => {
		vi.useFakeTimers();
		const updates: { at: number; text: string }[] = [];
		const ops: BashOperations = {
			async exec(_command, _cwd, { onData }) {
				for (let i = 0; i < 10; i++) {
					onData(Buffer.from(`chunk ${i}\n`));
					await vi.advanceTimersByTimeAsync(30);
				}
				return { exitCode: 0 };
			},
		};
		const dir = tempDir();
		await createBashTool(dir, { operations: ops }).execute("c", { command: "x" }, undefined, (update) => {
			updates.push({ at: Date.now(), text: textOf(update) });
		});
		expect(updates[0]?.text).toBe("");
		const streamed = updates.slice(1, -1);
		expect(streamed.length).toBeGreaterThan(1);
		for (let i = 1; i < streamed.length; i++) {
			expect((streamed[i]?.at ?? 0) - (streamed[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(100);
		}
		expect(updates.at(-1)?.text).toContain("chunk 9");
	});
});
