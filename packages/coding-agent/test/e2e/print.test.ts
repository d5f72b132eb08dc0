import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliBuilt, jsonLines, mockServer, runCli, sandbox, writeMockModels } from "./harness.js";

function userTexts(body: unknown): string[] {
	const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
	return messages
		.filter((message) => message.role === "user")
		.map((message) =>
			typeof message.content === "string"
				? message.content
				: (message.content as Array<{ type: string; text?: string }>)
						.filter((block) => block.type === "text")
						.map((block) => block.text)
						.join(""),
		);
}

describe.skipIf(!cliBuilt)("print mode (built CLI)", () => {
	it("prints only the final text blocks, each followed by a newline, and exits 0", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({
			blocks: [
				{ type: "thinking", text: "hmm" },
				{ type: "text", text: "Hello" },
				{ type: "text", text: "World" },
			],
		});
		const result = await runCli(box, ["-p", "hi"]);
		expect(result.stderr).toBe("");
		expect(result.stdout).toBe("Hello\nWorld\n");
		expect(result.code).toBe(0);
		expect(userTexts(server.requests[0]!.body)).toEqual(["hi"]);
	});

	it("joins piped stdin to the message with a blank line", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "ok" });
		const result = await runCli(box, ["-p", "Summarize"], { stdin: "data\n" });
		expect(result.code).toBe(0);
		expect(userTexts(server.requests[0]!.body)).toEqual(["data\n\nSummarize"]);
	});

	it("wraps @file text, skips empty files and fails on missing ones", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		writeFileSync(join(box.project, "f.md"), "\uFEFFcontent");
		writeFileSync(join(box.project, "empty.txt"), "");
		server.enqueue({ text: "ok" });
		const ok = await runCli(box, ["-p", "@f.md", "@empty.txt", "Explain"]);
		expect(ok.code).toBe(0);
		expect(userTexts(server.requests[0]!.body)).toEqual([
			`<file name="${join(box.project, "f.md")}">\ncontent\n</file>\nExplain`,
		]);
		const missing = await runCli(box, ["-p", "@missing.txt", "x"]);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain(`Error: File not found: ${join(box.project, "missing.txt")}`);
		expect(missing.stdout).toBe("");
	});

	it("reports a provider error on stderr with empty stdout and exit 1", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		writeFileSync(join(box.agentDir, "settings.json"), JSON.stringify({ retry: { enabled: false } }));
		server.enqueue({ fault: { kind: "http", status: 400, message: "bad request body" } });
		const result = await runCli(box, ["-p", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stdout).toBe("");
		expect(result.stderr).toContain("bad request body");
	});

	it("a bad API key fails with the provider's message and exit 1", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server, { apiKey: "wrong-key" });
		const result = await runCli(box, ["-p", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stdout).toBe("");
		expect(result.stderr).not.toBe("");
		expect(server.requests[0]!.status).toBe(401);
	});

	it("prints partial text and the truncation warning for stopReason length, exit 1", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		// Output at the model's maxTokens: a real truncation, not context pressure (which compaction recovers).
		server.enqueue({ text: "partial", stopReason: "length", usage: { output: 8192 } });
		const result = await runCli(box, ["-p", "hi"]);
		expect(result.stdout).toBe("partial\n");
		expect(result.stderr).toContain("Response was truncated: the model reached its output token limit.");
		expect(result.code).toBe(1);
	});

	it("sends two positional messages as two runs and prints only the last answer", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "first" }, { text: "second" });
		const result = await runCli(box, ["-p", "one", "two"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("second\n");
		expect(server.requests).toHaveLength(2);
		expect(userTexts(server.requests[1]!.body)).toEqual(["one", "two"]);
	});

	it("retries after a 429 and prints the answer", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue(
			{ fault: { kind: "http", status: 429, message: "rate limited", retryAfter: 0 } },
			{ text: "after retry" },
		);
		const result = await runCli(box, ["-p", "hi"]);
		expect(result.stdout).toBe("after retry\n");
		expect(result.code).toBe(0);
		expect(server.requests).toHaveLength(2);
	});

	it("uses print mode when stdout is not a terminal and no flag is given", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "piped" });
		const result = await runCli(box, ["hello"]);
		expect(result).toMatchObject({ code: 0, stdout: "piped\n" });
	});

	it("--mode text without a terminal is print mode: only the final text, then exit", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "text mode answer" });
		const result = await runCli(box, ["--mode", "text", "hello"]);
		expect(result).toMatchObject({ code: 0, stdout: "text mode answer\n", stderr: "" });
		expect(userTexts(server.requests[0]!.body)).toEqual(["hello"]);
	});

	it("an aborted answer exits 1 with the abort message on stderr and nothing on stdout", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		// The stream stalls after its first text delta; the extension aborts once that delta arrives.
		server.enqueue({ text: "partial words that never finish", fault: { kind: "stall", afterEvents: 3 } });
		const extension = join(box.home, "abort-extension.js");
		writeFileSync(
			extension,
			`module.exports = function (pi) {
	pi.on("message_update", (_event, ctx) => ctx.abort());
};
`,
		);
		const result = await runCli(box, ["-e", extension, "-p", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stdout).toBe("");
		expect(result.stderr).toMatch(/abort/i);
		expect(server.requests).toHaveLength(1);
	});

	it("a missing model exits 1 with the resolver error", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const result = await runCli(box, ["--model", "no-such-model-anywhere", "-p", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/^Error: .*no-such-model-anywhere/m);
		expect(result.stdout).toBe("");
		expect(server.requests).toHaveLength(0);
	});

	it("without any model prints guidance mentioning --offline-demo, exit 1", async () => {
		const box = sandbox();
		const result = await runCli(box, ["-p", "hi"]);
		expect(result.code).toBe(1);
		expect(result.stdout).toBe("");
		expect(result.stderr).toContain("No models available");
		expect(result.stderr).toContain("--offline-demo");
	});

	it("--offline-demo answers offline through the real tool loop", async () => {
		const box = sandbox();
		writeFileSync(join(box.project, "README.md"), "# Demo project\n");
		const result = await runCli(box, ["--offline-demo", "-p", "look around"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain("offline demo model");
		expect(result.stdout).toContain("README.md");
		expect(result.stdout).toContain("# Demo project");
	});

	it("--offline-demo reads README.md rather than index.js when both are listed", async () => {
		const box = sandbox();
		writeFileSync(join(box.project, "index.js"), "// entry point\n");
		writeFileSync(join(box.project, "README.md"), "# The readme\n");
		const result = await runCli(box, ["--offline-demo", "-p", "look around"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('README.md starts with: "# The readme"');
		expect(result.stdout).not.toContain("entry point");
	});

	// Nothing left open may hold the process after its answer: not the idle keep-alive connection to the
	// provider (the mock server keeps it open), not a timer an extension started. Without the explicit exit
	// the interval below keeps the process alive for ever and the run never closes (the test times out).
	it("exits after its answer although a timer and the provider connection are still open", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const extension = join(box.home, "keeps-a-timer.ts");
		writeFileSync(extension, "export default function () {\n\tsetInterval(() => {}, 60_000);\n}\n");
		for (const mode of [["-p"], ["--mode", "json"]]) {
			server.enqueue({ text: "pong" });
			const result = await runCli(box, ["--no-session", "-e", extension, ...mode, "hi"]);
			expect(result.stderr).toBe("");
			expect(result.code).toBe(0);
			expect(result.stdout).toContain("pong");
		}
		expect(server.requests).toHaveLength(2);
	});

	it("--offline-demo lists with the ls tool, also when --tools only modifies the defaults", async () => {
		for (const tools of [[], ["--tools", "-write"]]) {
			const box = sandbox();
			const result = await runCli(box, ["--offline-demo", ...tools, "--mode", "json", "look around"]);
			expect(result.code).toBe(0);
			const started = jsonLines(result.stdout).filter((record) => record.type === "tool_execution_start");
			expect(started.map((record) => record.toolName)).toEqual(["ls"]);
		}
	});

	it("--offline-demo falls back to bash when the user's flags leave ls out", async () => {
		const box = sandbox();
		const result = await runCli(box, ["--offline-demo", "--tools", "-ls", "--mode", "json", "look around"]);
		expect(result.code).toBe(0);
		const started = jsonLines(result.stdout).filter((record) => record.type === "tool_execution_start");
		expect(started.map((record) => record.toolName)).toEqual(["bash"]);
	});
});
