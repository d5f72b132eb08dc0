import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
	method: string;
	headers: IncomingMessage["headers"];
	body: unknown;
}

export type HttpHandler = (request: RecordedRequest, res: ServerResponse) => void | Promise<void>;

/** A local HTTP server on 127.0.0.1 that records requests and hands them to `handler`. */
export async function startHttpServer(handler: HttpHandler) {
	const requests: RecordedRequest[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => {
			const text = Buffer.concat(chunks).toString("utf8");
			const recorded: RecordedRequest = {
				method: req.method ?? "",
				headers: req.headers,
				body: text ? JSON.parse(text) : undefined,
			};
			requests.push(recorded);
			Promise.resolve(handler(recorded, res)).catch((error: unknown) => {
				res.statusCode = 500;
				res.end(String(error));
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/mcp`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

export function json(res: ServerResponse, body: unknown, headers: Record<string, string> = {}): void {
	res.writeHead(200, { "content-type": "application/json", ...headers });
	res.end(JSON.stringify(body));
}

export function initializeResult(id: unknown) {
	return {
		jsonrpc: "2.0",
		id,
		result: {
			protocolVersion: "2025-06-18",
			capabilities: { tools: {} },
			serverInfo: { name: "http", version: "1" },
		},
	};
}
