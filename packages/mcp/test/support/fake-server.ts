import type { JsonRpcMessage, JsonRpcRequest, McpTransport } from "@tau/mcp";
import { createInMemoryTransportPair } from "@tau/mcp/testing";

type Handler = (request: JsonRpcRequest, server: FakeServer) => unknown | Promise<unknown>;

/** A scripted MCP server on the far end of an in-memory pair; records everything it receives. */
export class FakeServer {
	readonly received: JsonRpcMessage[] = [];
	readonly clientTransport: McpTransport;
	readonly transport: McpTransport;
	private readonly handlers = new Map<string, Handler>();
	private nextId = 1000;
	private readonly waiting = new Map<number, (message: JsonRpcMessage) => void>();
	private readonly watchers: ((message: JsonRpcMessage) => void)[] = [];

	constructor(
		options: { protocolVersion?: string; capabilities?: Record<string, unknown>; instructions?: string } = {},
	) {
		const [client, server] = createInMemoryTransportPair();
		this.clientTransport = client;
		this.transport = server;
		this.handle("initialize", () => ({
			protocolVersion: options.protocolVersion ?? "2025-11-25",
			capabilities: options.capabilities ?? { tools: {} },
			serverInfo: { name: "fake", version: "1.0.0" },
			...(options.instructions === undefined ? {} : { instructions: options.instructions }),
		}));
		server.onMessage((message) => {
			this.received.push(message);
			for (const watcher of this.watchers) watcher(message);
			if ("method" in message && "id" in message && message.id !== undefined)
				void this.answer(message as JsonRpcRequest);
			else if (!("method" in message) && typeof message.id === "number") this.waiting.get(message.id)?.(message);
		});
	}

	handle(method: string, handler: Handler): void {
		this.handlers.set(method, handler);
	}

	/** Resolves with the first received message matching `predicate` (already received ones included). */
	next(predicate: (message: JsonRpcMessage) => boolean): Promise<JsonRpcMessage> {
		const found = this.received.find(predicate);
		if (found) return Promise.resolve(found);
		return new Promise((resolve) => {
			this.watchers.push((message) => {
				if (predicate(message)) resolve(message);
			});
		});
	}

	notify(method: string, params?: Record<string, unknown>): Promise<void> {
		return this.transport.send({ jsonrpc: "2.0", method, ...(params ? { params } : {}) });
	}

	/** Sends a server-to-client request and resolves with the client's response. */
	request(method: string, params?: Record<string, unknown>): Promise<JsonRpcMessage> {
		const id = this.nextId++;
		return new Promise((resolve) => {
			this.waiting.set(id, resolve);
			void this.transport.send({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
		});
	}

	methods(): string[] {
		return this.received.flatMap((message) => ("method" in message ? [message.method] : []));
	}

	private async answer(request: JsonRpcRequest): Promise<void> {
		const handler = this.handlers.get(request.method);
		if (!handler) return;
		try {
			const result = await handler(request, this);
			if (result === NO_ANSWER) return;
			await this.transport.send({ jsonrpc: "2.0", id: request.id, result });
		} catch (error) {
			const code = (error as { code?: number }).code ?? -32603;
			await this.transport.send({
				jsonrpc: "2.0",
				id: request.id,
				error: { code, message: (error as Error).message },
			});
		}
	}
}

/** Return from a handler to leave the request unanswered. */
export const NO_ANSWER = Symbol("no answer");
