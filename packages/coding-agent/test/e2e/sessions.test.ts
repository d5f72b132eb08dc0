import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliBuilt, jsonLines, mockServer, runCli, type Sandbox, sandbox, writeMockModels } from "./harness.js";

function sessionFiles(box: Sandbox): string[] {
	const root = join(box.agentDir, "sessions");
	try {
		return readdirSync(root).flatMap((dir) => readdirSync(join(root, dir)).map((file) => join(root, dir, file)));
	} catch {
		return [];
	}
}

async function firstSession(box: Sandbox, prompt = "one"): Promise<string> {
	const result = await runCli(box, ["--mode", "json", prompt]);
	expect(result.code).toBe(0);
	return jsonLines(result.stdout)[0]!.id as string;
}

describe.skipIf(!cliBuilt)("session selection from the command line (built CLI)", () => {
	it("--continue reopens the latest session of the directory with its history", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.setFactory(() => ({ text: "ok" }));
		const id = await firstSession(box, "remember apples");
		const result = await runCli(box, ["--continue", "--mode", "json", "what did I say?"]);
		expect(jsonLines(result.stdout)[0]!.id).toBe(id);
		expect(JSON.stringify(server.requests[1]!.body)).toContain("remember apples");
		expect(sessionFiles(box)).toHaveLength(1);
	});

	it("--session opens by id prefix and reports unknown ids", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.setFactory(() => ({ text: "ok" }));
		const id = await firstSession(box, "remember pears");
		const result = await runCli(box, ["--session", id.slice(0, 8), "--mode", "json", "again"]);
		expect(jsonLines(result.stdout)[0]!.id).toBe(id);
		expect(JSON.stringify(server.requests[1]!.body)).toContain("remember pears");
		const missing = await runCli(box, ["--session", "zzzz-nope", "-p", "x"]);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain("No session found matching 'zzzz-nope'");
	});

	it("--session of another project fails without asking on stdin", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.setFactory(() => ({ text: "ok" }));
		const id = await firstSession(box);
		const elsewhere = join(box.home, "elsewhere");
		mkdirSync(elsewhere);
		const result = await runCli(box, ["--session", id, "-p", "x"], { cwd: elsewhere, stdin: "y\n" });
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(
			`Error: Session ${id} belongs to another project (${box.project}); use --fork to copy it into this directory`,
		);
		expect(result.stdout).toBe("");
	});

	it("--fork copies a session into a new one and leaves the source alone", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.setFactory(() => ({ text: "ok" }));
		const id = await firstSession(box, "remember plums");
		const [source] = sessionFiles(box);
		const before = readFileSync(source!, "utf8");
		const result = await runCli(box, ["--fork", id, "--mode", "json", "continue"]);
		expect(result.code).toBe(0);
		const forkedId = jsonLines(result.stdout)[0]!.id;
		expect(forkedId).not.toBe(id);
		expect(JSON.stringify(server.requests[1]!.body)).toContain("remember plums");
		expect(readFileSync(source!, "utf8")).toBe(before);
		expect(sessionFiles(box)).toHaveLength(2);
	});

	it("--session-id creates a session with that id (with a warning), then reopens it", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.setFactory(() => ({ text: "ok" }));
		const created = await runCli(box, ["--session-id", "my-id", "--mode", "json", "hi"]);
		expect(created.stderr).toContain(
			"Warning: No project session found with id 'my-id'; creating a new session with that id.",
		);
		expect(jsonLines(created.stdout)[0]!.id).toBe("my-id");
		const reopened = await runCli(box, ["--session-id", "my-id", "--mode", "json", "again"]);
		expect(reopened.stderr).not.toContain("Warning");
		expect(JSON.stringify(server.requests[1]!.body)).toContain("hi");
	});

	it("--no-session writes nothing", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.setFactory(() => ({ text: "ok" }));
		const result = await runCli(box, ["--no-session", "-p", "hi"]);
		expect(result.code).toBe(0);
		expect(sessionFiles(box)).toEqual([]);
	});

	it("rejects bad flag combinations before opening anything", async () => {
		const box = sandbox();
		const cases: Array<[string[], string]> = [
			[["--fork", "x", "--continue", "-p", "hi"], "Error: --fork cannot be combined with --continue"],
			[
				["--fork", "x", "--session", "y", "--no-session", "-p", "hi"],
				"Error: --fork cannot be combined with --session, --no-session",
			],
			[["--session-id", "a", "--resume", "-p", "hi"], "Error: --session-id cannot be combined with --resume"],
			[
				["--session-id", "bad!", "-p", "hi"],
				"Error: Session id must be non-empty, contain only alphanumeric characters, '-', '_', and '.', and start and end with an alphanumeric character",
			],
			[["--name", "  ", "-p", "hi"], "Error: --name requires a non-empty value"],
			[["--resume", "-p", "hi"], "Error: --resume requires an interactive terminal"],
			[["--mode", "rpc", "@a.md"], "Error: @file arguments are not supported in RPC mode"],
		];
		for (const [args, message] of cases) {
			const result = await runCli(box, args);
			expect(result.code, args.join(" ")).toBe(1);
			expect(result.stderr, args.join(" ")).toContain(message);
			expect(result.stdout, args.join(" ")).toBe("");
		}
	});
});
