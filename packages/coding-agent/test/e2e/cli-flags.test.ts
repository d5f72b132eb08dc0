import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliBuilt, mockServer, runCli, sandbox, writeMockModels } from "./harness.js";
import { hasScript, runCliInTerminal, startCliInTerminal } from "./terminal.js";

describe.skipIf(!cliBuilt)("command-line flags (built CLI)", () => {
	it("--version prints only the version", async () => {
		const result = await runCli(sandbox(), ["--version"]);
		expect(result).toMatchObject({ code: 0, stderr: "" });
		expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
	});

	it("an invalid --thinking level warns and the run continues", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "fine" });
		const result = await runCli(box, ["--thinking", "extreme", "-p", "x"]);
		expect(result.stderr).toContain(
			'Warning: Invalid thinking level "extreme". Valid values: off, minimal, low, medium, high, xhigh, max',
		);
		expect(result).toMatchObject({ code: 0, stdout: "fine\n" });
	});

	it("--provider needs --model and --api-key needs a model", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const provider = await runCli(box, ["--provider", "openai", "-p", "x"]);
		expect(provider.code).toBe(1);
		expect(provider.stderr).toContain(
			"Error: --provider requires --model (for example: --provider <name> --model <pattern>)",
		);
		const apiKey = await runCli(box, ["--api-key", "k", "-p", "x"]);
		expect(apiKey.code).toBe(1);
		expect(apiKey.stderr).toContain(
			"Error: --api-key requires a model to be specified via --model, --provider/--model, or --models",
		);
	});

	it("--api-key with --model replaces the configured key for this run", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server, { apiKey: "stale-key" });
		server.enqueue({ text: "authorized" });
		const result = await runCli(box, ["--model", "mock/mock-model", "--api-key", "test-key", "-p", "x"]);
		expect(result).toMatchObject({ code: 0, stdout: "authorized\n" });
	});

	it("--list-models prints the table on stdout, filtered by a search that does not swallow -p", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const all = await runCli(box, ["--list-models"]);
		expect(all.code).toBe(0);
		expect(all.stdout.split("\n")[0]).toMatch(/^provider\s+model\s+context\s+max-out\s+thinking\s+images$/);
		expect(all.stdout).toMatch(/^mock\s+mock-model\s+200K\s+8\.2K\s+no\s+yes$/m);
		const filtered = await runCli(box, ["--list-models", "mock-mo", "-p"]);
		expect(filtered.code).toBe(0);
		expect(filtered.stdout).toContain("mock-model");
		const none = await runCli(box, ["--list-models", "zzqqx"]);
		expect(none.stdout).toBe('No models matching "zzqqx"\n');
	});

	it("a broken models.json entry is a warning on stderr in print mode and --list-models; the rest still works", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const models = JSON.parse(readFileSync(join(box.agentDir, "models.json"), "utf8"));
		models.providers.broken = { api: "anthropic-messages", apiKey: "k", models: [{ id: "no-base-url" }] };
		writeFileSync(join(box.agentDir, "models.json"), JSON.stringify(models));
		server.enqueue({ text: "still answering" });
		const print = await runCli(box, ["--model", "mock/mock-model", "-p", "hi"]);
		expect(print).toMatchObject({ code: 0, stdout: "still answering\n" });
		expect(print.stderr).toContain("Warning: errors loading models.json:");
		expect(print.stderr).toContain('Provider "broken"');
		const list = await runCli(box, ["--list-models"]);
		expect(list.code).toBe(0);
		expect(list.stdout).toContain("mock-model");
		expect(list.stderr).toContain('Provider "broken"');

		writeFileSync(join(box.agentDir, "models.json"), "{ not json");
		const unparsable = await runCli(box, ["--list-models"]);
		expect(unparsable.code).toBe(0);
		expect(unparsable.stderr).toContain("Warning: errors loading models.json:");
		expect(unparsable.stderr).toContain("Failed to parse models.json");
	});

	it("--export writes a self-contained, escaped HTML file and reports its path", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "<script>alert('x')</script> & done" });
		await runCli(box, ["-p", "<b>bold</b> question"]);
		const sessions = join(box.agentDir, "sessions");
		const [dir] = readdirSync(sessions);
		const [file] = readdirSync(join(sessions, dir!));
		const source = join(sessions, dir!, file!);
		const result = await runCli(box, ["--export", source, "out.html"]);
		expect(result).toMatchObject({ code: 0, stdout: "Exported to: out.html\n" });
		const html = readFileSync(join(box.project, "out.html"), "utf8");
		// The viewer page (docs/export.md): the title escaped, the session as inert JSON in which no
		// `<` survives, and only the page's own two scripts (the browser tests in test/export open it).
		expect(html).toContain("<title>&lt;b&gt;bold&lt;/b&gt; question · tau</title>");
		expect(html.match(/<script/g)).toHaveLength(2);
		const data = /<script id="tau-session-data" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!;
		expect(data).not.toContain("<");
		expect(JSON.stringify(JSON.parse(data))).toContain("<script>alert('x')</script> & done");
		const derived = await runCli(box, ["--export", source]);
		expect(derived.code).toBe(0);
		expect(existsSync(join(box.project, file!.replace(/\.jsonl$/, ".html")))).toBe(true);
		const missing = await runCli(box, ["--export", join(box.home, "nope.jsonl")]);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toMatch(/^Error: /);
	});

	it("--mode json is not interactive: an empty prompt list still writes the header and exits 0", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const result = await runCli(box, ["--mode", "json"]);
		expect(result.code).toBe(0);
		expect(JSON.parse(result.stdout.split("\n")[0]!)).toMatchObject({ type: "session" });
	});
});

describe.skipIf(!cliBuilt)("more startup checks (built CLI)", () => {
	it("--fork with an existing --session-id is refused", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.setFactory(() => ({ text: "ok" }));
		await runCli(box, ["--session-id", "taken", "-p", "hi"]);
		const result = await runCli(box, ["--fork", "taken", "--session-id", "taken", "-p", "x"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("Error: Session already exists with id 'taken'");
	});

	it("a session whose recorded directory is gone fails in print mode", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.setFactory(() => ({ text: "ok" }));
		await runCli(box, ["-p", "hi"]);
		const sessions = join(box.agentDir, "sessions");
		const [dir] = readdirSync(sessions);
		const [file] = readdirSync(join(sessions, dir!));
		const path = join(sessions, dir!, file!);
		const lines = readFileSync(path, "utf8").split("\n");
		lines[0] = JSON.stringify({ ...JSON.parse(lines[0]!), cwd: join(box.home, "deleted-project") });
		writeFileSync(path, lines.join("\n"));
		const result = await runCli(box, ["--session", path, "-p", "x"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(join(box.home, "deleted-project"));
		expect(result.stdout).toBe("");
	});

	it("extension errors during a print run are reported on stderr with the extension path", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "still answered" });
		const extension = join(box.home, "throwing.js");
		writeFileSync(
			extension,
			"module.exports = function (pi) { pi.on('agent_start', () => { throw new Error('handler broke'); }); };\n",
		);
		const result = await runCli(box, ["-e", extension, "-p", "hi"]);
		expect(result.stdout).toBe("still answered\n");
		expect(result.stderr).toContain(`Extension error (${extension}): handler broke`);
	});
});

describe.skipIf(!cliBuilt || !hasScript)("with a terminal (skipped unless util-linux script is installed)", () => {
	it("starts the interactive mode; a double Ctrl+C quits and restores the terminal", async () => {
		const box = sandbox();
		const session = startCliInTerminal(box, ["--offline-demo"]);
		// The collapsed startup header lists the interrupt key once the first frame is drawn.
		await session.waitForOutput("interrupt");
		session.type("\x03\x03");
		expect(await session.exited).toBe(0);
		expect(session.output()).toContain("\x1b[?1049h");
		expect(session.output()).toContain("\x1b[?1049l");
	});

	it("--mode text with a terminal is the interactive mode; --help still prints", async () => {
		const box = sandbox();
		const text = startCliInTerminal(box, ["--mode", "text", "--offline-demo"]);
		await text.waitForOutput("interrupt");
		text.type("\x03\x03");
		expect(await text.exited).toBe(0);
		const help = await runCliInTerminal(box, ["--help"]);
		expect(help.status).toBe(0);
		expect(help.output).toContain("Usage:");
	});
});
