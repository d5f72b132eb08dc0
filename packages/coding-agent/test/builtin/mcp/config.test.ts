import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { interpolateValue } from "../../../src/builtin/mcp/config/interpolate.js";
import { loadMcpConfig } from "../../../src/builtin/mcp/config/load-config.js";
import { createMcpTransport } from "../../../src/builtin/mcp/connection/create-transport.js";
import { getMcpToolExposure } from "../../../src/builtin/mcp/exposure.js";
import { tempDir } from "../../support/isolated-session.js";
import { writeMcpJson } from "./harness.js";

/** `${NAME}` written without a template-looking string literal. */
const open = "$" + "{";
const ref = (name: string) => `${open}${name}}`;

function dirs() {
	const cwd = tempDir("tau-mcp-cwd-");
	const agentDir = tempDir("tau-mcp-agent-");
	return { cwd, agentDir, projectDir: join(cwd, ".tau") };
}

describe("mcp.json loading", () => {
	it("ignores the project file of an untrusted project and notes it", () => {
		const { cwd, agentDir, projectDir } = dirs();
		writeMcpJson(projectDir, { evil: { command: "rm" } });
		const config = loadMcpConfig({ cwd, agentDir, projectTrusted: false });
		expect(config.servers).toEqual([]);
		expect(config.untrustedProjectFile).toBe(join(projectDir, "mcp.json"));
		expect(loadMcpConfig({ cwd, agentDir, projectTrusted: true }).servers.map((s) => s.name)).toEqual(["evil"]);
	});

	it("a project override disables a user server and keeps its env; a project entry with command replaces", () => {
		const { cwd, agentDir, projectDir } = dirs();
		writeMcpJson(agentDir, {
			docs: { command: "docs-server", env: { TOKEN: "secret" } },
			db: { command: "db-server", env: { A: "1" } },
		});
		writeMcpJson(projectDir, { docs: { enabled: false }, db: { command: "other-db" } });
		const config = loadMcpConfig({ cwd, agentDir, projectTrusted: true });
		const docs = config.servers.find((s) => s.name === "docs")!;
		expect(docs.enabled).toBe(false);
		expect(docs.config).toMatchObject({ command: "docs-server", env: { TOKEN: "secret" }, enabled: false });
		expect(docs.overrideSource).toBe(join(projectDir, "mcp.json"));
		const db = config.servers.find((s) => s.name === "db")!;
		expect(db.config).toEqual({ command: "other-db" });
		expect(db.scope).toBe("project");
		expect(config.errors).toEqual([]);
	});

	it("reports overrides with other keys, namespace conflicts, sse, auth in project files, bad JSON — skipping only those", () => {
		const { cwd, agentDir, projectDir } = dirs();
		writeMcpJson(agentDir, {
			web: { url: "https://example.com/mcp" },
			"a-b": { command: "x" },
			a_b: { command: "y" },
			old: { type: "sse", url: "https://example.com/sse" },
		});
		writeMcpJson(projectDir, {
			web: { headers: { Authorization: "x" } },
			p: { url: "https://example.com/mcp", auth: { provider: "anthropic" } },
		});
		const config = loadMcpConfig({ cwd, agentDir, projectTrusted: true });
		expect(config.servers.map((s) => s.name)).toEqual(["web", "a-b"]);
		expect(config.errors).toEqual([
			expect.stringMatching(/"a_b" conflicts with "a-b"/),
			expect.stringMatching(/type "sse".*Streamable HTTP/),
			expect.stringMatching(/"web": an override may set only enabled, exposure, toolExposure \(found headers\)/),
			expect.stringMatching(/"p": "auth" is allowed only in the user file/),
		]);
		writeFileSync(join(projectDir, "mcp.json"), "{ nope");
		const broken = loadMcpConfig({ cwd, agentDir, projectTrusted: true });
		expect(broken.errors.filter((e) => /^Invalid JSON in .*mcp\.json:1:3: /.test(e))).toHaveLength(1);
		expect(broken.servers.map((s) => s.name)).toEqual(["web", "a-b"]);
	});

	it("strips a BOM; autoEnableCodemode: project overrides user, non-boolean is an error", () => {
		const { cwd, agentDir, projectDir } = dirs();
		mkdirSync(agentDir, { recursive: true });
		writeFileSync(
			join(agentDir, "mcp.json"),
			`\uFEFF${JSON.stringify({ mcpServers: { s: { command: "x" } }, autoEnableCodemode: false })}`,
		);
		expect(loadMcpConfig({ cwd, agentDir, projectTrusted: false })).toMatchObject({
			autoEnableCodemode: false,
			errors: [],
		});
		writeMcpJson(projectDir, {}, { autoEnableCodemode: true });
		expect(loadMcpConfig({ cwd, agentDir, projectTrusted: true }).autoEnableCodemode).toBe(true);
		writeMcpJson(projectDir, {}, { autoEnableCodemode: "yes" });
		expect(loadMcpConfig({ cwd, agentDir, projectTrusted: true }).errors).toEqual([
			expect.stringMatching(/autoEnableCodemode/),
		]);
	});

	it("extension registrations come after files; a file entry with the same namespace wins", () => {
		const { cwd, agentDir } = dirs();
		writeMcpJson(agentDir, { "my-docs": { command: "file-docs" } });
		const config = loadMcpConfig({
			cwd,
			agentDir,
			projectTrusted: false,
			registered: [
				{ name: "my_docs", config: { command: "ext-docs" }, extensionPath: "/ext.ts" },
				{ name: "extra", config: { command: "ext-extra" }, extensionPath: "/ext.ts" },
			],
		});
		expect(config.servers.map((s) => [s.name, s.scope])).toEqual([
			["my-docs", "user"],
			["extra", "extension"],
		]);
		expect(config.errors).toEqual([expect.stringMatching(/"my_docs" registered by \/ext.ts is overridden/)]);
	});
});

describe("interpolation and transports", () => {
	const context = { server: "s", env: { TOKEN: "abc", EMPTY: "" } };

	it("resolves $VAR, braced references, $$, $!, and !command", () => {
		expect(interpolateValue(`Bearer ${ref("TOKEN")}`, "headers.Authorization", context)).toBe("Bearer abc");
		expect(interpolateValue(`$TOKEN-$$-$!-${open}bad`, "env.X", context)).toBe(`abc-$-!-${open}bad`);
		expect(interpolateValue("!echo token", "env.X", context)).toBe("token");
		expect(() => interpolateValue(ref("MISSING"), "env.KEY", context)).toThrow(/"s".*env\.KEY.*MISSING/);
		expect(() => interpolateValue("!exit 1", "env.KEY", context)).toThrow(/env\.KEY/);
	});

	it("a missing variable fails only that server's transport; ~/ expands in command and args", () => {
		const { cwd, agentDir } = dirs();
		const home = process.env.HOME;
		process.env.HOME = "/home/tester";
		try {
			writeMcpJson(agentDir, {
				bad: { command: "x", env: { K: ref("NOPE_NOT_SET") } },
				good: { command: "~/bin/server", args: ["~/data", "plain"], cwd: "sub" },
			});
			const config = loadMcpConfig({ cwd, agentDir, projectTrusted: false });
			const [bad, good] = config.servers;
			expect(() => createMcpTransport(bad!, { cwd, env: {} })).toThrow(/"bad".*env\.K/);
			const transport = createMcpTransport(good!, { cwd, env: {} }) as unknown as {
				options: { command: string; args: string[]; cwd: string };
			};
			expect(transport.options.command).toBe("/home/tester/bin/server");
			expect(transport.options.args).toEqual(["/home/tester/data", "plain"]);
			expect(transport.options.cwd).toBe(join(cwd, "sub"));
		} finally {
			process.env.HOME = home;
		}
	});

	it("tool exposure: exact key, then first matching pattern, then server exposure", () => {
		const { cwd, agentDir } = dirs();
		writeMcpJson(agentDir, {
			s: {
				command: "x",
				exposure: "hidden",
				toolExposure: { read_file: "direct", "write_*": "deferred", "*": "codemode" },
			},
		});
		const [entry] = loadMcpConfig({ cwd, agentDir, projectTrusted: false }).servers;
		expect(getMcpToolExposure(entry!, "read_file")).toBe("direct");
		expect(getMcpToolExposure(entry!, "write_log")).toBe("deferred");
		expect(getMcpToolExposure(entry!, "other")).toBe("codemode");
		const plain = { ...entry!, config: { ...entry!.config, toolExposure: { x: "direct" as const } } };
		expect(getMcpToolExposure(plain, "y")).toBe("hidden");
	});
});
