import {
	type JsonRpcMessage,
	type JsonRpcRequest,
	McpAbortError,
	McpClient,
	McpConnectionClosedError,
	McpError,
	McpTimeoutError,
} from "@tau/mcp";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeServer, NO_ANSWER } from "./support/fake-server.js";

const isMethod = (method: string) => (message: JsonRpcMessage) => "method" in message && message.method === method;

function client(options: Partial<ConstructorParameters<typeof McpClient>[0]> = {}) {
	return new McpClient({ name: "tau", version: "1.2.3", ...options });
}

function progressTokenOf(request: JsonRpcRequest): number {
	return (request.params?._meta as { progressToken: number } | undefined)?.progressToken ?? -1;
}

afterEach(() => {
	vi.useRealTimers();
});

describe("McpClient handshake", () => {
	it("sends initialize with client info and capabilities, then notifications/initialized", async () => {
		const server = new FakeServer({ instructions: "use me", capabilities: { tools: { listChanged: true } } });
		const mcp = client({ roots: [{ uri: "file:///work", name: "work" }] });
		const result = await mcp.connect(server.clientTransport);
		expect(result.serverInfo.name).toBe("fake");
		expect(mcp.connectionState).toBe("connected");
		expect(mcp.instructions).toBe("use me");
		expect(mcp.serverCapabilities).toEqual({ tools: { listChanged: true } });
		await server.next(isMethod("notifications/initialized"));
		expect(server.methods()).toEqual(["initialize", "notifications/initialized"]);
		const init = server.received[0] as JsonRpcRequest;
		expect(init.id).toBe(1);
		expect(init.params).toEqual({
			protocolVersion: "2025-11-25",
			capabilities: { roots: {} },
			clientInfo: { name: "tau", version: "1.2.3" },
		});
		await mcp.close();
	});

	it("accepts 2024-11-05 and rejects an unknown version, closing the transport", async () => {
		const old = new FakeServer({ protocolVersion: "2024-11-05" });
		const ok = client();
		await ok.connect(old.clientTransport);
		expect(ok.protocolVersion).toBe("2024-11-05");
		await ok.close();

		const future = new FakeServer({ protocolVersion: "2099-01-01" });
		const closed = vi.fn();
		future.transport.onClose(closed);
		const bad = client();
		await expect(bad.connect(future.clientTransport)).rejects.toThrow(/2099-01-01/);
		expect(bad.connectionState).toBe("closed");
		expect(closed).toHaveBeenCalledOnce();
	});

	it("rejects a malformed initialize result with -32600", async () => {
		const server = new FakeServer();
		server.handle("initialize", () => ({ protocolVersion: "2025-11-25", capabilities: {} }));
		const error = await client()
			.connect(server.clientTransport)
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(McpError);
		expect((error as McpError).code).toBe(-32600);
	});
});

describe("McpClient requests", () => {
	it("times out with McpTimeoutError and sends notifications/cancelled", async () => {
		const server = new FakeServer();
		server.handle("tools/call", () => NO_ANSWER);
		const mcp = client();
		await mcp.connect(server.clientTransport);
		vi.useFakeTimers();
		const call = mcp.callTool("slow", {}, { timeoutMs: 1000 });
		const settled = call.catch((e: unknown) => e);
		await vi.advanceTimersByTimeAsync(1000);
		const error = await settled;
		expect(error).toBeInstanceOf(McpTimeoutError);
		expect((error as McpTimeoutError).timeoutMs).toBe(1000);
		vi.useRealTimers();
		const cancel = await server.next(isMethod("notifications/cancelled"));
		expect((cancel as JsonRpcRequest).params).toMatchObject({ requestId: 2 });
		await mcp.close();
	});

	it("progress notifications re-arm the timeout and reach onProgress", async () => {
		const server = new FakeServer();
		let finish: (() => void) | undefined;
		server.handle("tools/call", (request, srv) => {
			const token = progressTokenOf(request);
			return new Promise((resolve) => {
				finish = () => resolve({ content: [{ type: "text", text: "done" }] });
				void srv.notify("notifications/progress", { progressToken: token, progress: 1, total: 4, message: "step" });
			});
		});
		const mcp = client();
		await mcp.connect(server.clientTransport);
		vi.useFakeTimers();
		const progress: unknown[] = [];
		const call = mcp.callTool("long", { _: 1 }, { timeoutMs: 1000, onProgress: (p) => progress.push(p) });
		// Four progress messages, 500 ms apart, keep a 1 s timeout request alive for 2 s.
		for (let i = 0; i < 4; i++) {
			await vi.advanceTimersByTimeAsync(500);
			const request = server.received.find(isMethod("tools/call")) as JsonRpcRequest;
			const token = progressTokenOf(request);
			await server.notify("notifications/progress", { progressToken: token, progress: i + 2, total: 6 });
			await vi.advanceTimersByTimeAsync(0);
		}
		finish?.();
		await expect(call).resolves.toEqual({ content: [{ type: "text", text: "done" }] });
		expect(progress[0]).toEqual({ progressToken: 2, progress: 1, total: 4, message: "step" });
		expect(progress).toHaveLength(5);
		const sent = server.received.find(isMethod("tools/call")) as JsonRpcRequest;
		expect(sent.params).toEqual({ name: "long", arguments: { _: 1 }, _meta: { progressToken: 2 } });
		await mcp.close();
	});

	it("abort rejects with McpAbortError and cancels with the signal reason; pre-aborted never sends", async () => {
		const server = new FakeServer();
		server.handle("tools/call", () => NO_ANSWER);
		const mcp = client();
		await mcp.connect(server.clientTransport);
		const controller = new AbortController();
		const call = mcp.callTool("x", {}, { signal: controller.signal });
		await server.next(isMethod("tools/call"));
		controller.abort("user stop");
		await expect(call).rejects.toBeInstanceOf(McpAbortError);
		const cancel = await server.next(isMethod("notifications/cancelled"));
		expect((cancel as JsonRpcRequest).params).toEqual({ requestId: 2, reason: "user stop" });

		await expect(mcp.callTool("y", {}, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(McpAbortError);
		expect(server.received.filter(isMethod("tools/call"))).toHaveLength(1);
		await mcp.close();
	});

	it("never cancels initialize", async () => {
		const server = new FakeServer();
		server.handle("initialize", () => NO_ANSWER);
		const mcp = client({ requestTimeoutMs: 5 });
		await expect(mcp.connect(server.clientTransport)).rejects.toBeInstanceOf(McpTimeoutError);
		expect(server.methods()).toEqual(["initialize"]);
	});

	it("error responses become McpError; closing rejects pending calls and fires onClose once", async () => {
		const server = new FakeServer();
		server.handle("tools/call", () => {
			throw Object.assign(new Error("bad args"), { code: -32602 });
		});
		server.handle("resources/read", () => NO_ANSWER);
		const mcp = client();
		await mcp.connect(server.clientTransport);
		const error = await mcp.callTool("x").catch((e: unknown) => e);
		expect(error).toMatchObject({ code: -32602, message: "bad args" });
		const onClose = vi.fn();
		mcp.onClose(onClose);
		const pending = mcp.readResource("file:///a");
		await server.next(isMethod("resources/read"));
		await server.transport.close();
		await expect(pending).rejects.toBeInstanceOf(McpConnectionClosedError);
		expect(onClose).toHaveBeenCalledOnce();
		await expect(mcp.ping()).rejects.toBeInstanceOf(McpConnectionClosedError);
	});
});

describe("McpClient server requests", () => {
	it("answers ping, roots/list and unknown methods; server cancel aborts the handler", async () => {
		const server = new FakeServer();
		const mcp = client({ roots: () => [{ uri: "file:///proj", name: "proj" }] });
		await mcp.connect(server.clientTransport);
		expect(await server.request("ping")).toMatchObject({ result: {} });
		expect(await server.request("roots/list")).toMatchObject({
			result: { roots: [{ uri: "file:///proj", name: "proj" }] },
		});
		expect(await server.request("sampling/createMessage")).toMatchObject({
			error: { code: -32601, message: "Method not found: sampling/createMessage" },
		});

		let seen: AbortSignal | undefined;
		const aborted = new Promise<void>((resolve) => {
			mcp.setRequestHandler("custom/wait", (_params, { signal }) => {
				seen = signal;
				signal.addEventListener("abort", () => resolve());
				return new Promise(() => {});
			});
		});
		void server.request("custom/wait");
		await vi.waitFor(() => expect(seen).toBeDefined());
		await server.notify("notifications/cancelled", { requestId: 1001 + 2, reason: "stop" });
		await aborted;
		expect(seen?.aborted).toBe(true);
		await mcp.close();
	});

	it("handler errors keep their McpError code; nullish results become {}", async () => {
		const server = new FakeServer();
		const mcp = client();
		await mcp.connect(server.clientTransport);
		mcp.setRequestHandler("a", () => {
			throw new McpError(-32602, "nope");
		});
		mcp.setRequestHandler("b", () => {
			throw new Error("boom");
		});
		mcp.setRequestHandler("c", () => undefined);
		expect(await server.request("a")).toMatchObject({ error: { code: -32602, message: "nope" } });
		expect(await server.request("b")).toMatchObject({ error: { code: -32603, message: "boom" } });
		expect(await server.request("c")).toMatchObject({ result: {} });
		await mcp.close();
	});

	it("listener exceptions and unknown response ids go to onError", async () => {
		const server = new FakeServer();
		const mcp = client();
		await mcp.connect(server.clientTransport);
		const errors: Error[] = [];
		mcp.onError((e) => errors.push(e));
		mcp.onNotification("notifications/message", () => {
			throw new Error("listener broke");
		});
		await server.notify("notifications/message", { level: "info", data: "x" });
		await server.transport.send({ jsonrpc: "2.0", id: 999, result: {} });
		await vi.waitFor(() =>
			expect(errors.map((e) => e.message)).toEqual(["listener broke", expect.stringMatching(/999/)]),
		);
		await mcp.close();
	});
});

describe("McpClient listings and results", () => {
	it("follows three pages, stops on an empty cursor and rejects a repeated cursor", async () => {
		const server = new FakeServer();
		const pages: Record<string, unknown> = {
			start: { tools: [{ name: "a", inputSchema: { type: "object" } }], nextCursor: "p2" },
			p2: { tools: [{ name: "b", inputSchema: {} }], nextCursor: "p3" },
			p3: { tools: [{ name: "c", inputSchema: {} }], nextCursor: "" },
		};
		server.handle("tools/list", (request) => pages[(request.params?.cursor as string) ?? "start"]);
		server.handle("resources/list", (request) =>
			request.params?.cursor
				? { resources: [], nextCursor: "again" }
				: { resources: [{ uri: "file:///x" }], nextCursor: "again" },
		);
		const mcp = client();
		await mcp.connect(server.clientTransport);
		expect((await mcp.listTools()).map((t) => t.name)).toEqual(["a", "b", "c"]);
		await expect(mcp.listResources()).rejects.toThrow(/repeated cursor/);
		expect(await mcp.listResourcesPage()).toEqual({
			resources: [{ uri: "file:///x", name: "file:///x" }],
			nextCursor: "again",
		});
		await mcp.close();
	});

	it("validates tools and fills callTool content; structuredContent may be an array or null", async () => {
		const server = new FakeServer();
		let reply: unknown = { structuredContent: [1, 2] };
		server.handle("tools/call", () => reply);
		server.handle("tools/list", () => ({ tools: [{ name: "x" }] }));
		const mcp = client();
		await mcp.connect(server.clientTransport);
		expect(await mcp.callTool("t")).toEqual({ content: [], structuredContent: [1, 2] });
		reply = { content: [], structuredContent: null };
		expect(await mcp.callTool("t")).toEqual({ content: [], structuredContent: null });
		reply = { content: "nope" };
		await expect(mcp.callTool("t")).rejects.toThrow(/content must be an array/);
		await expect(mcp.listTools()).rejects.toThrow(/inputSchema/);
		await mcp.close();
	});
});
