import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface OAuthRequest {
	method: string;
	path: string;
	headers: Record<string, string | string[] | undefined>;
	body: string;
	form: URLSearchParams;
}
export type Route = (
	request: OAuthRequest,
	base: string,
) => { status?: number; json?: unknown; headers?: Record<string, string> };

/** A mock authorization/resource server on 127.0.0.1 answering from a route table (404 otherwise). */
export async function startOAuthServer(routes: Record<string, Route> = {}) {
	const requests: OAuthRequest[] = [];
	let base = "";
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => {
			const body = Buffer.concat(chunks).toString("utf8");
			const url = new URL(req.url ?? "/", base);
			const request: OAuthRequest = {
				method: req.method ?? "",
				path: url.pathname,
				headers: req.headers,
				body,
				form: new URLSearchParams(body),
			};
			requests.push(request);
			const route = routes[`${request.method} ${request.path}`] ?? routes[request.path];
			if (!route) {
				res.writeHead(404).end();
				return;
			}
			const answer = route(request, base);
			res.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers });
			res.end(answer.json === undefined ? "" : JSON.stringify(answer.json));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		base,
		routes,
		requests,
		paths: () => requests.map((r) => `${r.method} ${r.path}`),
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

export function asMetadata(base: string, extra: Record<string, unknown> = {}) {
	return {
		issuer: base,
		authorization_endpoint: `${base}/authorize`,
		token_endpoint: `${base}/token`,
		registration_endpoint: `${base}/register`,
		response_types_supported: ["code"],
		code_challenge_methods_supported: ["S256"],
		...extra,
	};
}
