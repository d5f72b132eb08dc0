import { createServer, type IncomingMessage } from "node:http";
import { connect, type Socket } from "node:net";
import { TLSSocket } from "node:tls";

/** A server certificate (PEM) the proxy presents inside intercepted tunnels. */
export interface InterceptCertificate {
	cert: string;
	key: string;
}

/** Options of `startProxyServer`: where tunnels really lead, TLS interception and the credentials it requires. */
export interface ProxyServerOptions {
	/**
	 * Where a tunnel to `host:port` really leads (default: there). Lets a test name a host that does
	 * not resolve, which only a request that went through the proxy can reach.
	 */
	route?: (host: string, port: number) => { host: string; port: number };
	/**
	 * Inspect TLS as corporate proxies do: answer the client's handshake inside each tunnel with this
	 * certificate (signed by a CA the client must trust) and forward the decrypted bytes in plain.
	 */
	intercept?: InterceptCertificate;
	/** `user:password` a client must send as `Proxy-Authorization: Basic …`; others get a 407. */
	credentials?: string;
}

/** A running HTTP CONNECT proxy for tests: its URL and the tunnels and forwards it saw. */
export interface ProxyServer {
	/** `http://127.0.0.1:<port>`, the value for `HTTPS_PROXY`/`HTTP_PROXY`. */
	readonly url: string;
	/** The `host:port` of every CONNECT request the proxy accepted, in order. */
	readonly connects: readonly string[];
	/** Requests that asked the proxy to fetch a URL for them (absolute form) instead of tunnelling; refused. */
	readonly forwards: readonly string[];
	close(): Promise<void>;
}

function splitTarget(target: string): { host: string; port: number } {
	const at = target.lastIndexOf(":");
	return { host: target.slice(0, at).replace(/^\[|\]$/g, ""), port: Number(target.slice(at + 1)) };
}

/**
 * An HTTP proxy on 127.0.0.1 that tunnels CONNECT requests and records their targets, for tests that
 * check a client takes the proxy the environment names (docs/testkit.md).
 */
export async function startProxyServer(options: ProxyServerOptions = {}): Promise<ProxyServer> {
	const connects: string[] = [];
	const forwards: string[] = [];
	const sockets = new Set<Socket>();
	const track = (socket: Socket) => {
		sockets.add(socket);
		socket.on("close", () => sockets.delete(socket));
		socket.on("error", () => socket.destroy());
	};
	const server = createServer((request, response) => {
		forwards.push(`${request.method} ${request.url}`);
		response.writeHead(501, { "content-type": "text/plain" }).end("this proxy only tunnels (CONNECT)\n");
	});
	server.on("connection", track);
	server.on("connect", (request: IncomingMessage, client: Socket, head: Buffer) => {
		const target = request.url ?? "";
		const expected = options.credentials && `Basic ${Buffer.from(options.credentials).toString("base64")}`;
		if (expected && request.headers["proxy-authorization"] !== expected) {
			client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
			return;
		}
		connects.push(target);
		const requested = splitTarget(target);
		const destination = options.route?.(requested.host, requested.port) ?? requested;
		const upstream = connect(destination.port, destination.host);
		track(upstream);
		upstream.on("error", () => client.destroy());
		upstream.on("connect", () => {
			client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
			if (head.length > 0) client.unshift(head);
			const inside = options.intercept ? new TLSSocket(client, { isServer: true, ...options.intercept }) : client;
			inside.on("error", () => client.destroy());
			inside.pipe(upstream).pipe(inside);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const address = server.address();
	const port = typeof address === "object" && address ? address.port : 0;
	return {
		url: `http://127.0.0.1:${port}`,
		connects,
		forwards,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}
