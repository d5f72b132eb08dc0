import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type McpCliContext, runMcpCli } from "../../../src/builtin/mcp/index.js";
import { tempDir } from "../../support/isolated-session.js";
import { writeMcpJson } from "./harness.js";

const SCRIPTED = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));

function cli(options: { projectTrusted?: boolean } = {}) {
	const cwd = tempDir("tau-mcp-cli-cwd-");
	const agentDir = tempDir("tau-mcp-cli-agent-");
	let out = "";
	let err = "";
	const ctx: McpCliContext = {
		cwd,
		agentDir,
		projectTrusted: options.projectTrusted ?? false,
		env: process.env,
		stdout: (text) => {
			out += text;
		},
		stderr: (text) => {
			err += text;
		},
	};
	return {
		ctx,
		run: async (...args: string[]) => {
			out = "";
			err = "";
			const code = await runMcpCli(args, ctx);
			return { code, out, err };
		},
		userFile: () =>
			JSON.parse(readFileSync(join(agentDir, "mcp.json"), "utf8")) as { mcpServers: Record<string, unknown> },
	};
}

describe("tau mcp add / remove", () => {
	it("adds a stdio server with env and cwd, keeping other content and the file's indentation", async () => {
		const c = cli();
		writeFileSync(join(c.ctx.agentDir, "mcp.json"), '{\n    "other": 1,\n    "mcpServers": {}\n}\n');
		const result = await c.run(
			"add",
			"docs",
			"--env",
			"TOKEN=abc",
			"--cwd",
			"/tmp",
			"--",
			"npx",
			"-y",
			"docs-server",
		);
		expect(result).toMatchObject({
			code: 0,
			out: expect.stringMatching(/Added MCP server "docs"[\s\S]*tau mcp list/),
		});
		const text = readFileSync(join(c.ctx.agentDir, "mcp.json"), "utf8");
		expect(text).toContain('\n    "other": 1');
		expect(c.userFile().mcpServers.docs).toEqual({
			command: "npx",
			args: ["-y", "docs-server"],
			env: { TOKEN: "abc" },
			cwd: "/tmp",
		});
	});

	it("adds an HTTP server with a bearer token variable and OAuth options; replaces on re-add", async () => {
		const c = cli();
		await c.run(
			"add",
			"web",
			"--url",
			"https://example.com/mcp",
			"--bearer-token-env-var",
			"WEB_TOKEN",
			"--exposure",
			"direct",
		);
		expect(c.userFile().mcpServers.web).toEqual({
			url: "https://example.com/mcp",
			headers: { Authorization: `Bearer ${"$"}{WEB_TOKEN}` },
			exposure: "direct",
		});
		const again = await c.run(
			"add",
			"web",
			"--url",
			"https://example.com/mcp",
			"--oauth-client-id",
			"abc",
			"--oauth-callback-port",
			"8123",
		);
		expect(again.out).toMatch(/Replaced[\s\S]*tau mcp login web/);
		expect(c.userFile().mcpServers.web).toEqual({
			url: "https://example.com/mcp",
			oauth: { clientId: "abc", callbackPort: 8123 },
		});
	});

	it("rejects wrong-transport options, invalid entries and missing commands", async () => {
		const c = cli();
		expect(await c.run("add", "x", "--header", "A=b", "--", "cmd")).toMatchObject({
			code: 1,
			err: expect.stringMatching(/--header applies only to HTTP/),
		});
		expect(await c.run("add", "x", "--env", "A=b", "--url", "https://x")).toMatchObject({
			code: 1,
			err: expect.stringMatching(/--env applies only to stdio/),
		});
		expect(await c.run("add", "bad name", "--", "cmd")).toMatchObject({
			code: 1,
			err: expect.stringMatching(/letters, digits/),
		});
		expect(await c.run("add", "x")).toMatchObject({ code: 1, err: expect.stringMatching(/command after --/) });
		expect(existsSync(join(c.ctx.agentDir, "mcp.json"))).toBe(false);
	});

	it("-l writes the project file and warns when the project is untrusted", async () => {
		const c = cli();
		const result = await c.run("add", "local", "-l", "--", "server");
		expect(result.err).toMatch(/not trusted/);
		expect(JSON.parse(readFileSync(join(c.ctx.cwd, ".tau", "mcp.json"), "utf8")).mcpServers.local).toEqual({
			command: "server",
		});
	});

	it("remove deletes the entry, keeps credentials, and suggests close names or the other file", async () => {
		const c = cli();
		writeMcpJson(c.ctx.agentDir, { docs: { url: "https://example.com/mcp" } });
		writeFileSync(
			join(c.ctx.agentDir, "mcp-auth.json"),
			JSON.stringify({ "mcp__docs|https://example.com/mcp": { tokens: {} } }),
		);
		expect(await c.run("remove", "dcs")).toMatchObject({
			code: 1,
			err: expect.stringMatching(/Did you mean "docs"/),
		});
		expect(await c.run("remove", "docs")).toMatchObject({ code: 0 });
		expect(c.userFile().mcpServers).toEqual({});
		expect(readFileSync(join(c.ctx.agentDir, "mcp-auth.json"), "utf8")).toContain("mcp__docs");
		writeMcpJson(join(c.ctx.cwd, ".tau"), { proj: { command: "x" } });
		expect(await c.run("remove", "proj")).toMatchObject({
			code: 1,
			err: expect.stringMatching(/defined in .*\.tau.*use -l/),
		});
	});
});

describe("tau mcp list / login / logout", () => {
	it("list connects servers and prints state and tools; --json has the documented shape; exit 1 when one fails", async () => {
		const c = cli();
		writeMcpJson(c.ctx.agentDir, {
			good: { command: process.execPath, args: [SCRIPTED], toolExposure: { wipe: "direct" } },
			off: { command: "nothing", enabled: false },
		});
		const text = await c.run("list");
		expect(text.code).toBe(0);
		expect(text.out).toContain(`good: connected, 4 tools (codemode, global)\n  ${process.execPath} ${SCRIPTED}\n`);
		expect(text.out).toContain("  tools: alpha, beta, toggle_beta, wipe [direct]\n");
		expect(text.out).toContain("off: disabled (codemode, global)\n  nothing\n");
		const json = await c.run("list", "--json");
		const parsed = JSON.parse(json.out) as { servers: Record<string, unknown>[]; errors: string[] };
		expect(parsed.errors).toEqual([]);
		// pi 1.6's fields and values (scope "global", the command line as transport, no `resources: false`).
		expect(parsed.servers[0]).toEqual({
			name: "good",
			scope: "global",
			source: join(c.ctx.agentDir, "mcp.json"),
			enabled: true,
			exposure: "codemode",
			transport: `${process.execPath} ${SCRIPTED}`,
			state: "connected",
			tools: ["alpha", "beta", "toggle_beta", "wipe"],
			toolExposure: { wipe: "direct" },
		});
		expect(parsed.servers[1]).toMatchObject({ name: "off", enabled: false, state: "disabled" });
		writeMcpJson(c.ctx.agentDir, { broken: { command: "/nonexistent/tau-mcp-server" } });
		const failing = await c.run("list", "--json");
		expect(failing.code).toBe(1);
		expect(JSON.parse(failing.out).servers[0]).toMatchObject({
			state: "failed",
			error: expect.stringMatching(/ENOENT/),
		});
	});

	it("login: connected servers need nothing; auth.provider points to tau auth login; unknown names suggest", async () => {
		const c = cli();
		writeMcpJson(c.ctx.agentDir, {
			good: { command: process.execPath, args: [SCRIPTED] },
			prov: { url: "https://example.com/mcp", auth: { provider: "acme" } },
		});
		expect(await c.run("login", "good")).toMatchObject({ code: 0, out: expect.stringMatching(/no sign-in needed/) });
		expect(await c.run("login", "prov")).toMatchObject({
			code: 1,
			err: expect.stringMatching(/tau auth login acme/),
		});
		expect(await c.run("login", "god")).toMatchObject({ code: 1, err: expect.stringMatching(/Did you mean "good"/) });
	});

	it("logout deletes the stored credentials of that server only", async () => {
		const c = cli();
		writeMcpJson(c.ctx.agentDir, { docs: { url: "https://example.com/mcp" } });
		const store = join(c.ctx.agentDir, "mcp-auth.json");
		writeFileSync(
			store,
			JSON.stringify({ "mcp__docs|https://example.com/mcp": { tokens: {} }, "mcp__x|https://x/": {} }),
		);
		expect(await c.run("logout", "docs")).toMatchObject({
			code: 0,
			out: expect.stringMatching(/Removed stored credentials/),
		});
		expect(Object.keys(JSON.parse(readFileSync(store, "utf8")))).toEqual(["mcp__x|https://x/"]);
	});
});
