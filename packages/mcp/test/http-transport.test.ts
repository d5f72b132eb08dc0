import type { ServerResponse } from "node:http";
import {
	McpAbortError,
	McpClient,
	McpSessionExpiredError,
	StreamableHttpTransport,
	type StreamableHttpTransportOptions,
} from "@tau/mcp";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
	type HttpHandler,
	initializeResult,
	json,
	type RecordedRequest,
	startHttpServer,
} from "./support/http-server.js";

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
	for (const server of servers.splice(0)) await server.close();
});

async function serve(handler: HttpHandler) {
	const server = await startHttpServer(handler);
	servers.push(server);
	return server;
}

type Rpc = { id?: number; method?: string; params?: Record<string, unknown> };

/** Answers initialize with a session id, notifications with 202, GET with 405 unless overridden. */
function mcpHandler(
	handlers: Record<string, (rpc: Rpc, res: ServerResponse, req: RecordedRequest) => void>,
): HttpHandler {
	return (req, res) => {
		if (req.method === "GET") {
			const get = handlers.GET;
			if (get) return get({}, res, req);
			res.writeHead(405).end();
			return;
		}
		if (req.method === "DELETE") {
			res.writeHead(200).end();
			return;
		}
		const rpc = req.body as Rpc;
		if (rpc.method === "initialize") return json(res, initializeResult(rpc.id), { "mcp-session-id": "sess-1" });
		if (rpc.id === undefined) {
			res.writeHead(202).end();
			return;
		}
		const handler = handlers[rpc.method ?? ""];
		if (handler) handler(rpc, res, req);
		else json(res, { jsonrpc: "2.0", id: rpc.id, result: {} });
	};
}

async function connect(url: string, options: Partial<StreamableHttpTransportOptions> = {}) {
	const transport = new StreamableHttpTransport({ url, ...options });
	const client = new McpClient({ name: "tau", version: "1" });
	const errors: Error[] = [];
	client.onError((e) => errors.push(e));
	await client.connect(transport);
	return { transport, client, errors };
}

function sse(res: ServerResponse, text: string, end = true) {
	res.writeHead(200, { "content-type": "text/event-stream" });
	res.write(text);
	if (end) res.end();
}

describe("StreamableHttpTransport", () => {
	it("sends session id and protocol version headers; reads JSON and SSE (CR-only) replies", async () => {
		const server = await serve(
			mcpHandler({
				"tools/list": (rpc, res) =>
					json(res, { jsonrpc: "2.0", id: rpc.id, result: { tools: [{ name: "j", inputSchema: {} }] } }),
				"tools/call": (rpc, res) =>
					sse(
						res,
						`: comment\revent: message\rid: 7\rdata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}\r\rdata: {"jsonrpc":"2.0",\rdata: "id":${rpc.id},"result":{"content":[{"type":"text","text":"sse"}]}}\r\r`,
					),
			}),
		);
		const { client, transport } = await connect(server.url);
		const logs: unknown[] = [];
		client.onNotification("notifications/message", (p) => logs.push(p));
		expect(transport.sessionId).toBe("sess-1");
		expect((await client.listTools()).map((t) => t.name)).toEqual(["j"]);
		expect(await client.callTool("x")).toEqual({ content: [{ type: "text", text: "sse" }] });
		expect(logs).toEqual([{ level: "info", data: "hi" }]);
		const [init, initialized, list] = server.requests.filter((r) => r.method === "POST");
		expect(init!.headers["mcp-session-id"]).toBeUndefined();
		expect(init!.headers.accept).toBe("application/json, text/event-stream");
		expect(initialized!.headers["mcp-session-id"]).toBe("sess-1");
		expect(list!.headers["mcp-protocol-version"]).toBe("2025-06-18");
		await client.close();
	});

	it("rejects an oversized event and closes the connection", async () => {
		const server = await serve(
			mcpHandler({ "tools/call": (_rpc, res) => sse(res, `data: ${"z".repeat(5000)}\n\n`) }),
		);
		const { client, errors } = await connect(server.url, { maxMessageBytes: 1000 });
		await expect(client.callTool("x")).rejects.toThrow(/closed/);
		expect(client.connectionState).toBe("closed");
		expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/exceeds 1000/)]);
	});

	it("resumes a dropped POST stream with GET + Last-Event-ID after the server's retry delay", async () => {
		let getCount = 0;
		const server = await serve(
			mcpHandler({
				"tools/call": (_rpc, res) =>
					sse(res, 'retry: 5\nid: e1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n'),
				GET: (_rpc, res, req) => {
					if (!req.headers["last-event-id"]) {
						res.writeHead(405).end();
						return;
					}
					getCount++;
					sse(res, `id: e2\ndata: {"jsonrpc":"2.0","id":2,"result":{"content":[]}}\n\n`);
				},
			}),
		);
		// A long default delay: the test only finishes in time if the server's `retry: 5` is used.
		const { client } = await connect(server.url, { reconnect: { initialDelayMs: 60_000 } });
		expect(await client.callTool("x")).toEqual({ content: [] });
		expect(getCount).toBe(1);
		const resume = server.requests.find((r) => r.method === "GET" && r.headers["last-event-id"]);
		expect(resume?.headers["last-event-id"]).toBe("e1");
		await client.close();
	});

	it("without event ids only the dropped request fails; a GET 405 is silent", async () => {
		const server = await serve(
			mcpHandler({
				"tools/call": (_rpc, res) => sse(res, ": nothing\n\n"),
				"tools/list": (rpc, res) => json(res, { jsonrpc: "2.0", id: rpc.id, result: { tools: [] } }),
			}),
		);
		const { client, errors } = await connect(server.url);
		await expect(client.callTool("x")).rejects.toMatchObject({
			code: -32603,
			message: expect.stringMatching(/^response stream failed/),
		});
		expect(await client.listTools()).toEqual([]);
		await vi.waitFor(() => expect(server.requests.some((r) => r.method === "GET")).toBe(true));
		expect(errors).toEqual([]);
		await client.close();
	});

	it("the GET stream delivers server messages and reconnects with Last-Event-ID after a drop", async () => {
		let gets = 0;
		const server = await serve(
			mcpHandler({
				GET: (_rpc, res) => {
					gets++;
					const n = gets;
					if (n > 2) {
						res.writeHead(405).end();
						return;
					}
					sse(
						res,
						`id: g${n}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":"push ${n}"}}\n\n`,
					);
				},
			}),
		);
		const { client, errors } = await connect(server.url, { reconnect: { initialDelayMs: 1 } });
		const pushed: unknown[] = [];
		client.onNotification("notifications/message", (params) => pushed.push(params?.data));
		await vi.waitFor(() => expect(pushed).toEqual(["push 1", "push 2"]));
		const [first, second] = server.requests.filter((r) => r.method === "GET");
		expect(first!.headers["last-event-id"]).toBeUndefined();
		expect(second!.headers["last-event-id"]).toBe("g1");
		expect(errors).toEqual([]);
		await client.close();
	});

	it("release() ends a session DELETE the server never answers, so close() settles at once", async () => {
		// The session DELETE hangs until its signal aborts; a fake fetch makes that observable without waiting.
		const server = await serve(mcpHandler({}));
		let deleteSignal: AbortSignal | undefined;
		const hangingDelete = (input: string | URL, init?: RequestInit) => {
			if (init?.method !== "DELETE") return fetch(input, init);
			deleteSignal = init.signal ?? undefined;
			return new Promise<Response>((_resolve, reject) =>
				init.signal?.addEventListener("abort", () => reject(init.signal?.reason), { once: true }),
			);
		};
		const { client, transport } = await connect(server.url, { fetch: hangingDelete });
		const closing = client.close();
		await vi.waitFor(() => expect(deleteSignal).toBeDefined());
		expect(deleteSignal!.aborted).toBe(false);
		transport.release();
		await closing;
		expect(deleteSignal!.aborted).toBe(true);
	});

	it("close() sends DELETE with the last token and never calls token()", async () => {
		const server = await serve(mcpHandler({}));
		let n = 0;
		const token = vi.fn(async () => `tok-${++n}`);
		// Recorded as sent: the DELETE is best effort with a 1 s timeout, so the server may never see it on a loaded machine.
		const sent: { method: string | undefined; headers: Headers }[] = [];
		const recording = (input: string | URL, init?: RequestInit) => {
			sent.push({ method: init?.method, headers: new Headers(init?.headers) });
			return fetch(input, init);
		};
		const { client } = await connect(server.url, { authProvider: { token }, fetch: recording });
		const calls = token.mock.calls.length;
		await client.close();
		expect(token.mock.calls.length).toBe(calls);
		const del = sent.find((r) => r.method === "DELETE");
		expect(del?.headers.get("authorization")).toBe(`Bearer tok-${calls}`);
		expect(del?.headers.get("mcp-session-id")).toBe("sess-1");
	});

	it("404 with a session id is McpSessionExpiredError; other statuses are McpHttpError", async () => {
		const server = await serve(
			mcpHandler({
				"tools/call": (_rpc, res) => res.writeHead(404).end("gone"),
				"tools/list": (_rpc, res) => res.writeHead(503).end("x".repeat(20_000)),
			}),
		);
		const { client } = await connect(server.url);
		await expect(client.callTool("x")).rejects.toBeInstanceOf(McpSessionExpiredError);
		const error = await client.listTools().catch((e: unknown) => e);
		expect(error).toMatchObject({ status: 503 });
		expect((error as { body: string }).body.length).toBe(500);
		await client.close();
	});
});

describe("StreamableHttpTransport auth", () => {
	it("401 calls onUnauthorized once with the rejected token, then retries; concurrent 401s share it", async () => {
		let valid = "new";
		const server = await serve((req, res) => {
			if (req.method !== "POST") return void res.writeHead(405).end();
			if (req.headers.authorization !== `Bearer ${valid}`) {
				res.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"' }).end();
				return;
			}
			const rpc = req.body as Rpc;
			if (rpc.method === "initialize") return json(res, initializeResult(rpc.id));
			if (rpc.id === undefined) return void res.writeHead(202).end();
			json(res, { jsonrpc: "2.0", id: rpc.id, result: { tools: [] } });
		});
		let current = "new";
		let release: (() => void) | undefined;
		let refreshes = 0;
		// Like a real provider: a 401 for a token that was already replaced needs no new refresh.
		const onUnauthorized = vi.fn(async (ctx: { token?: string }) => {
			if (ctx.token !== current) return;
			refreshes++;
			await new Promise<void>((resolve) => {
				release = resolve;
			});
			current = "fresh";
		});
		const { client } = await connect(server.url, { authProvider: { token: async () => current, onUnauthorized } });
		valid = "fresh";
		current = "old";
		const aborted = new AbortController();
		const a = client.listTools();
		const b = client.listTools();
		const c = client.listTools({ signal: aborted.signal }).catch((e: unknown) => e);
		await vi.waitFor(() => expect(release).toBeDefined());
		const before = server.requests.length;
		aborted.abort();
		release?.();
		await expect(Promise.all([a, b])).resolves.toEqual([[], []]);
		expect(await c).toBeInstanceOf(McpAbortError);
		expect(refreshes).toBe(1);
		// Two retries reached the server; the aborted request never did after the refresh.
		expect(
			server.requests
				.slice(before)
				.filter((r) => (r.body as Rpc).method === "tools/list" && r.headers.authorization === "Bearer fresh"),
		).toHaveLength(2);
		await client.close();
	});

	it("403 insufficient_scope triggers recovery; its error propagates", async () => {
		const server = await serve((req, res) => {
			const rpc = req.body as Rpc;
			if (rpc?.method === "initialize") return json(res, initializeResult(rpc.id));
			if (rpc?.id === undefined) return void res.writeHead(202).end();
			res.writeHead(403, { "www-authenticate": 'Bearer error="insufficient_scope", scope="write"' }).end();
		});
		const { client } = await connect(server.url, {
			openGetStream: false,
			authProvider: {
				token: async () => "t",
				onUnauthorized: async () => {
					throw new Error("step-up needed");
				},
			},
		});
		await expect(client.callTool("x")).rejects.toThrow("step-up needed");
		await client.close();
	});
});
