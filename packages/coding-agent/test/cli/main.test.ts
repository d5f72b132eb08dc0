import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main, VERSION } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";

async function run(argv: string[]) {
	let stdout = "";
	let stderr = "";
	const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
	return { code, stdout, stderr };
}

describe("main", () => {
	it("prints the package version on stdout", async () => {
		const result = await run(["--version"]);
		expect(result).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
		expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
	});

	it("prints help listing every option group on stdout", async () => {
		const result = await run(["--help"]);
		expect(result.code).toBe(0);
		for (const flag of [
			"--model",
			"--continue",
			"--tools",
			"--extension",
			"--system-prompt",
			"--mode",
			"--offline-demo",
		]) {
			expect(result.stdout).toContain(flag);
		}
		expect(result.stderr).toBe("");
	});

	it("gives every help heading at least one entry under it", async () => {
		const lines = (await run(["--help"])).stdout.split("\n");
		const headings = lines.flatMap((line, index) => (/^\S.*:$/.test(line) ? [index] : []));
		expect(headings.length).toBeGreaterThan(5);
		for (const index of headings) expect(lines[index + 1], `under "${lines[index]}"`).toMatch(/^ {2}\S/);
	});

	it("reports flag errors on stderr with exit code 1", async () => {
		const result = await run(["--bogus-short", "-z"]);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("Error: Unknown option: -z");
		expect(result.stdout).toBe("");
	});

	it("dispatches `auth` to the auth command", async () => {
		const result = await run(["auth", "--help"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toContain("tau auth check");
	});

	it("dispatches `config` to the config command", async () => {
		const result = await run(["config", "--help"]);
		expect(result.code).toBe(0);
		expect(result.stdout).toMatch(/^Usage: tau config /);
	});
});

describe("main: flag errors exit 1 before anything starts", () => {
	const cases: Array<[string[], string]> = [
		[["--mode"], "Error: --mode requires text, json, or rpc\n"],
		[["--mode", "xml"], 'Error: Invalid mode "xml". Valid values: text, json, rpc\n'],
		[["--tui-mode", "wide"], 'Error: Invalid TUI mode "wide". Valid values: regular, fullscreen\n'],
		[["-x"], "Error: Unknown option: -x\n"],
		[["--tools", "read,+bash"], "Error: --tools: tool names cannot be mixed with +name or -name entries\n"],
		[["-t", "+mcp*"], "Error: -t: +name and -name entries take exact tool names, not patterns: +mcp*\n"],
		[["--model"], "Error: --model requires a value\n"],
	];
	for (const [argv, message] of cases) {
		it(`tau ${argv.join(" ")}`, async () => {
			expect(await run(argv)).toEqual({ code: 1, stdout: "", stderr: message });
		});
	}
});

describe("tau mcp", () => {
	it("edits the user mcp.json in the agent directory", async () => {
		const agentDir = mkdtempSync(join(tmpdir(), "tau-mcp-cli-"));
		const previous = process.env.TAU_CODING_AGENT_DIR;
		process.env.TAU_CODING_AGENT_DIR = agentDir;
		try {
			const added = await run(["mcp", "add", "files", "--", "node", "server.js"]);
			expect(added.code).toBe(0);
			const config = JSON.parse(readFileSync(join(agentDir, "mcp.json"), "utf8"));
			expect(config.mcpServers.files).toMatchObject({ command: "node", args: ["server.js"] });
			const removed = await run(["mcp", "remove", "files"]);
			expect(removed.code).toBe(0);
			expect(JSON.parse(readFileSync(join(agentDir, "mcp.json"), "utf8")).mcpServers.files).toBeUndefined();
			const unknown = await run(["mcp", "frobnicate"]);
			expect(unknown.code).toBe(1);
			expect(unknown.stderr).toContain('Unknown subcommand "frobnicate"');
		} finally {
			if (previous === undefined) delete process.env.TAU_CODING_AGENT_DIR;
			else process.env.TAU_CODING_AGENT_DIR = previous;
		}
	});
});

describe("tau sessions import-pi", () => {
	it("copies Pi sessions of every project into the tau session tree and reports the counts", async () => {
		const root = mkdtempSync(join(tmpdir(), "tau-import-pi-"));
		const piDir = join(root, "pi");
		const agentDir = join(root, "tau");
		mkdirSync(join(piDir, "sessions", "--w--"), { recursive: true });
		const header = {
			type: "session",
			version: 3,
			id: "pi-session-1",
			timestamp: new Date(0).toISOString(),
			cwd: "/w",
		};
		writeFileSync(join(piDir, "sessions", "--w--", "s.jsonl"), `${JSON.stringify(header)}\n`);
		writeFileSync(join(piDir, "sessions", "--w--", "junk.jsonl"), "not a session\n");
		const saved = { pi: process.env.PI_CODING_AGENT_DIR, tau: process.env.TAU_CODING_AGENT_DIR };
		process.env.PI_CODING_AGENT_DIR = piDir;
		process.env.TAU_CODING_AGENT_DIR = agentDir;
		try {
			const dry = await run(["sessions", "import-pi", "--all", "--dry-run"]);
			expect(dry).toMatchObject({ code: 0, stdout: "Would import 1, skipped 0 (already imported), invalid 1\n" });
			expect(existsSync(join(agentDir, "sessions"))).toBe(false);
			const first = await run(["sessions", "import-pi", "--all"]);
			expect(first.stdout).toBe("Imported 1, skipped 0 (already imported), invalid 1\n");
			expect(readdirSync(join(agentDir, "sessions"))).toHaveLength(1);
			const again = await run(["sessions", "import-pi", "--all"]);
			expect(again.stdout).toBe("Imported 0, skipped 1 (already imported), invalid 1\n");
			expect((await run(["sessions", "export"])).code).toBe(1);
		} finally {
			for (const [name, value] of [
				["PI_CODING_AGENT_DIR", saved.pi],
				["TAU_CODING_AGENT_DIR", saved.tau],
			] as const) {
				if (value === undefined) delete process.env[name];
				else process.env[name] = value;
			}
		}
	});
});
