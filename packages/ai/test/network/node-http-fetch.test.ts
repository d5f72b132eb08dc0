import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nodeHttpFetch } from "../../src/network/node-http-fetch.js";

interface Seen {
	method: string | undefined;
	url: string | undefined;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

const servers: Server[] = [];

afterEach(async () => {
	vi.unstubAllGlobals();
	vi.unstubAllEnvs();
	await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A local server that records each request and answers with `reply`. */
async function serve(
	reply: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; seen: Seen[] }> {
	const seen: Seen[] = [];
	const server = createServer((request, response) => {
		let body = "";
		request.on("data", (chunk: Buffer) => (body += chunk.toString()));
		request.on("end", () => {
			seen.push({ method: request.method, url: request.url, headers: request.headers, body });
			reply(request, response);
		});
	});
	servers.push(server);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const POST = {
	method: "POST",
	headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" },
	body: JSON.stringify({ model: "m", stream: true }),
};

/** The request without what differs between any two requests (connection handling). */
function comparable(seen: Seen): Omit<Seen, "headers"> & { headers: Record<string, unknown> } {
	const { host: _host, connection: _connection, ...headers } = seen.headers;
	return { ...seen, headers };
}

describe("nodeHttpFetch: the SDKs' fetch over node:http", () => {
	it("sends the request Node's fetch sends (method, path, headers with fetch's defaults, body)", async () => {
		const server = await serve((_request, response) => response.end("ok"));
		await (await fetch(`${server.url}/v1/messages?beta=true`, POST)).text();
		await (await nodeHttpFetch(`${server.url}/v1/messages?beta=true`, POST)).text();
		expect(server.seen).toHaveLength(2);
		expect(comparable(server.seen[1] as Seen)).toEqual(comparable(server.seen[0] as Seen));
	});

	it("resolves to a Response with status, headers, the URL and the body decoded as fetch decodes it", async () => {
		const server = await serve((_request, response) => {
			response.writeHead(429, { "content-encoding": "gzip", "retry-after": "7", "x-request-id": "req_1" });
			response.end(gzipSync('{"error":"slow down"}'));
		});
		const response = await nodeHttpFetch(`${server.url}/v1/messages`, POST);
		expect(response.status).toBe(429);
		expect(response.ok).toBe(false);
		expect(response.headers.get("retry-after")).toBe("7");
		expect(response.url).toBe(`${server.url}/v1/messages`);
		expect(await response.json()).toEqual({ error: "slow down" });
	});

	it("streams the body a read at a time, as the server sends it", async () => {
		let next: (() => void) | undefined;
		const server = await serve((_request, response) => {
			response.writeHead(200, { "content-type": "text/event-stream" });
			response.write("data: one\n\n");
			next = () => response.end("data: two\n\n");
		});
		const reader = (await nodeHttpFetch(`${server.url}/v1/messages`, POST)).body!.getReader();
		const decoder = new TextDecoder();
		expect(decoder.decode((await reader.read()).value)).toBe("data: one\n\n");
		next?.();
		let rest = "";
		for (let read = await reader.read(); !read.done; read = await reader.read()) rest += decoder.decode(read.value);
		expect(rest).toBe("data: two\n\n");
	});

	it("fails a body read with the abort's reason when the signal aborts mid-body", async () => {
		const server = await serve((_request, response) => {
			response.writeHead(200, { "content-type": "text/event-stream" });
			response.write("data: one\n\n");
		});
		const controller = new AbortController();
		const response = await nodeHttpFetch(`${server.url}/v1/messages`, { ...POST, signal: controller.signal });
		const reader = response.body!.getReader();
		await reader.read();
		controller.abort();
		await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
	});

	it("rejects with the abort's reason for a signal aborted before sending, and sends nothing", async () => {
		const server = await serve((_request, response) => response.end("ok"));
		const reason = new Error("stop");
		await expect(
			nodeHttpFetch(`${server.url}/v1/messages`, { ...POST, signal: AbortSignal.abort(reason) }),
		).rejects.toBe(reason);
		expect(server.seen).toHaveLength(0);
	});

	it("rejects a connection error as fetch does, with the cause attached", async () => {
		const server = await serve((_request, response) => response.end("ok"));
		const closed = server.url;
		await new Promise((resolve) => servers.splice(0)[0]?.close(resolve));
		const error = await nodeHttpFetch(`${closed}/v1/messages`, POST).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(TypeError);
		expect((error as TypeError).message).toBe("fetch failed");
		expect(((error as TypeError).cause as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");
	});

	it("fails a body cut short as fetch does (`terminated`, a retryable error)", async () => {
		const server = await serve((_request, response) => {
			response.writeHead(200, { "content-type": "text/event-stream" });
			response.write("data: one\n\n", () => response.socket?.destroy());
		});
		const reader = (await nodeHttpFetch(`${server.url}/v1/messages`, POST)).body!.getReader();
		await reader.read();
		await expect(reader.read()).rejects.toMatchObject({ name: "TypeError", message: "terminated" });
	});

	it("leaves a redirect to Node's fetch, which follows it", async () => {
		const target = await serve((_request, response) => response.end("moved here"));
		const origin = await serve((_request, response) => {
			response.writeHead(307, { location: `${target.url}/v1/messages` });
			response.end();
		});
		const response = await nodeHttpFetch(`${origin.url}/v1/messages`, POST);
		expect(await response.text()).toBe("moved here");
		expect(target.seen[0]?.body).toBe(POST.body);
	});

	it("hands the request to a global fetch that replaced Node's (control: Node's own is bypassed)", async () => {
		const server = await serve((_request, response) => response.end("ok"));
		const replaced = vi.fn(async () => new Response("from the replacement"));
		vi.stubGlobal("fetch", replaced);
		expect(await (await nodeHttpFetch(`${server.url}/v1/messages`, POST)).text()).toBe("from the replacement");
		expect(server.seen).toHaveLength(0);
		vi.unstubAllGlobals();
		expect(await (await nodeHttpFetch(`${server.url}/v1/messages`, POST)).text()).toBe("ok");
		expect(replaced).toHaveBeenCalledTimes(1);
	});
});
