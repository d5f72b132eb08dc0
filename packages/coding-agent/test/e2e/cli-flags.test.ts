import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliBuilt, mockServer, runCli, sandbox, writeMockModels } from "./harness.js";

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
		expect(html).toContain("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; done");
		expect(html).toContain("&lt;b&gt;bold&lt;/b&gt; question");
		expect(html).not.toContain("<script");
		expect(html).not.toMatch(/(src|href)=/);
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
