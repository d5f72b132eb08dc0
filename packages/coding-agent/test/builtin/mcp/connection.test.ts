import { readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { McpHttpError } from "@tau/mcp";
import { afterEach, describe, expect, it } from "vitest";
import type { McpServerEntry } from "../../../src/builtin/mcp/config/load-config.js";
import { createMcpTransport } from "../../../src/builtin/mcp/connection/create-transport.js";
import { McpServerConnection } from "../../../src/builtin/mcp/connection/server-connection.js";
import { appendMcpLog } from "../../../src/builtin/mcp/log/mcp-log.js";
import { tempDir } from "../../support/isolated-session.js";

type Rpc = { id?: number; method?: string; params?: Record<string, unknown> };
type Plan = (rpc: Rpc, res: ServerResponse, session: string | undefined) => boolean;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
	for (const close of closers.splice(0)) await close();
});

/** A Streamable HTTP MCP server on 127.0.0.1; `plan` may answer a request itself (returning true). */
async function httpServer(plan: Plan) {
	const calls: string[] = [];
	let sessions = 0;
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => {
			if (req.method !== "POST") {
				res.writeHead(405).end();
				return;
			}
			const rpc = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Rpc;
			const session = req.headers["mcp-session-id"] as string | undefined;
			if (rpc.method) calls.push(`${rpc.method}${rpc.params?.name ? ` ${String(rpc.params.name)}` : ""}`);
			if (plan(rpc, res, session)) return;
			if (rpc.method === "initialize") {
				sessions++;
				res.writeHead(200, { "content-type": "application/json", "mcp-session-id": `s${sessions}` });
				res.end(
					JSON.stringify({
						jsonrpc: "2.0",
						id: rpc.id,
						result: {
							protocolVersion: "2025-11-25",
							capabilities: { tools: {}, resources: {} },
							serverInfo: { name: "http", version: "1" },
						},
					}),
				);
				return;
			}
			if (rpc.id === undefined) {
				res.writeHead(202).end();
				return;
			}
			const result =
				rpc.method === "tools/list"
					? { tools: [{ name: "act", inputSchema: {} }] }
					: rpc.method === "resources/list"
						? { resources: [] }
						: { content: [{ type: "text", text: "acted" }] };
			res.writeHead(200, { "content-type": "application/json" });
			res.end(JSON.stringify({ jsonrpc: "2.0", id: rpc.id, result }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	closers.push(
		() =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	);
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, calls };
}

function connection(url: string, sleeps: number[] = []) {
	const entry: McpServerEntry = {
		name: "web",
		namespace: "mcp__web",
		transport: "http",
		config: { url },
		scope: "user",
		source: "test",
		enabled: true,
	};
	const c = new McpServerConnection(entry, {
		version: "1",
		transportContext: { cwd: process.cwd(), env: {} },
		createTransport: createMcpTransport,
		sleep: async (ms) => {
			sleeps.push(ms);
		},
		onLog: () => {},
		onToolsChanged: () => {},
		onStateChange: () => {},
	});
	closers.push(() => c.close());
	return c;
}

describe("McpServerConnection retry rules (HTTP)", () => {
	it("a forgotten session (404) retries a tool call once on a new session; the server runs it exactly once", async () => {
		let expired = false;
		const server = await httpServer((rpc, res, session) => {
			if (rpc.method === "tools/call" && session === "s1" && !expired) {
				expired = true;
				res.writeHead(404).end("unknown session");
				return true;
			}
			return false;
		});
		const c = connection(server.url);
		const result = await c.request((client) => client.callTool("act", {}));
		expect(result.content).toEqual([{ type: "text", text: "acted" }]);
		expect(server.calls.filter((call) => call === "tools/call act")).toHaveLength(2);
		expect(server.calls.filter((call) => call === "initialize")).toHaveLength(2);
	});

	it("a 503 on the first resources/list is retried once after 250 ms; 503 on tools/call and 501 are surfaced", async () => {
		let resourceFailures = 1;
		const server = await httpServer((rpc, res) => {
			if ((rpc.method === "resources/list" && resourceFailures-- > 0) || rpc.method === "tools/call") {
				res.writeHead(503).end("busy");
				return true;
			}
			if (rpc.method === "resources/templates/list") {
				res.writeHead(501).end("no");
				return true;
			}
			return false;
		});
		const sleeps: number[] = [];
		const c = connection(server.url, sleeps);
		expect(await c.request((client) => client.listResources(), { readOnly: true })).toEqual([]);
		expect(sleeps).toEqual([250]);
		await expect(c.request((client) => client.callTool("act", {}))).rejects.toMatchObject({ status: 503 });
		expect(server.calls.filter((call) => call === "tools/call act")).toHaveLength(1);
		const error = await c
			.request((client) => client.listResourceTemplates(), { readOnly: true })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(McpHttpError);
		expect(server.calls.filter((call) => call === "resources/templates/list")).toHaveLength(1);
		expect(sleeps).toEqual([250]);
	});

	it("a background HTTP connect retries transient failures after 250 ms and 1 s, then fails", async () => {
		const down = await httpServer((rpc, res) => {
			if (rpc.method !== "initialize") return false;
			res.writeHead(503).end();
			return true;
		});
		const sleeps: number[] = [];
		const c = connection(down.url, sleeps);
		await expect(c.connect()).rejects.toThrow(/503/);
		expect(sleeps).toEqual([250, 1000]);
		expect(down.calls.filter((call) => call === "initialize")).toHaveLength(3);
		expect(c.state).toBe("failed");
	});

	it("a 401 without sign-in support leaves the server needing sign-in", async () => {
		const server = await httpServer((_rpc, res) => {
			res.writeHead(401, { "www-authenticate": "Bearer" }).end();
			return true;
		});
		const c = connection(server.url);
		await expect(c.request((client) => client.listTools())).rejects.toThrow(/needs sign-in/);
		expect(c.state).toBe("needs-auth");
	});
});

describe("mcp.log", () => {
	it("appends one line per notification with indented continuations and rotates past 5 MiB", () => {
		const dir = tempDir("tau-mcp-log-");
		const path = join(dir, "mcp.log");
		appendMcpLog(
			path,
			"docs",
			{ level: "warning", logger: "index", data: "first\nsecond" },
			new Date("2026-01-02T03:04:05.000Z"),
		);
		expect(readFileSync(path, "utf8")).toBe("2026-01-02T03:04:05.000Z [docs] warning index: first\n    second\n");
		writeFileSync(path, "x".repeat(5 * 1024 * 1024 + 1));
		appendMcpLog(path, "docs", { level: "info", data: { n: 1 } });
		expect(statSync(`${path}.1`).size).toBe(5 * 1024 * 1024 + 1);
		expect(readFileSync(path, "utf8")).toMatch(/\[docs\] info -: \{"n":1\}\n$/);
		appendMcpLog(join(dir, "missing", "dir", "mcp.log"), "docs", { data: "ignored" });
	});
});
