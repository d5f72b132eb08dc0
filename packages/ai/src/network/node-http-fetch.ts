import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { proxyForUrl } from "./proxy-env.js";

/**
 * Node's own `fetch`, as this module found the global: a caller (or test) that replaced the global
 * afterwards keeps getting its replacement.
 */
const nodeFetch = globalThis.fetch;

type FetchInput = Parameters<typeof fetch>[0];

/** Headers Node's `fetch` adds when the caller did not set them, so both transports send the same request. */
const FETCH_DEFAULT_HEADERS: Readonly<Record<string, string>> = {
	accept: "*/*",
	"accept-language": "*",
	"sec-fetch-mode": "cors",
	"user-agent": "node",
	"accept-encoding": "gzip, deflate",
};

/** Statuses whose response has no body (a `Response` refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The request function for a protocol; `node:https` loads with the first https request. Requests use
 * Node's global agents, which keep a connection alive between requests (closing it after 5 idle
 * seconds), as `fetch` does.
 */
let httpsRequest: Promise<typeof httpRequest> | undefined;

async function requestFor(protocol: string): Promise<typeof httpRequest> {
	if (protocol === "http:") return httpRequest;
	httpsRequest ??= import("node:https").then((https) => https.request as typeof httpRequest);
	return httpsRequest;
}

/** Request headers as a plain record, whatever form `init.headers` has. */
function headerRecord(headers: RequestInit["headers"]): Record<string, string> {
	const record: Record<string, string> = {};
	if (headers === undefined || headers === null) return record;
	const entries: Iterable<readonly [string, string]> =
		Symbol.iterator in headers
			? (headers as Iterable<readonly [string, string]>)
			: Object.entries(headers as Record<string, string>);
	for (const [name, value] of entries) record[name.toLowerCase()] = value;
	return record;
}

/** The response body as the `Response` reads it, decoded as `fetch` decodes it. */
function decodedBody(response: IncomingMessage): Readable {
	const encoding = response.headers["content-encoding"]?.trim().toLowerCase();
	if (encoding === "gzip" || encoding === "x-gzip") return response.pipe(createGunzip());
	if (encoding === "deflate") return response.pipe(createInflate());
	if (encoding === "br") return response.pipe(createBrotliDecompress());
	return response;
}

/**
 * The decoded body as a web stream, read as the consumer asks (the socket pauses in between). A body
 * cut short fails as `fetch`'s does (`TypeError: terminated`, the cause attached), an aborted one with
 * the abort's reason; cancelling the stream closes the connection.
 */
function webBody(response: IncomingMessage, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
	const decoded = decodedBody(response);
	if (decoded !== response) response.on("error", (error) => decoded.destroy(error));
	decoded.pause();
	return new ReadableStream<Uint8Array>({
		start(controller) {
			decoded.on("data", (chunk: Buffer) => {
				controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
				if ((controller.desiredSize ?? 0) <= 0) decoded.pause();
			});
			decoded.on("end", () => controller.close());
			decoded.on("error", (error) => {
				controller.error(signal?.aborted ? abortReason(signal) : new TypeError("terminated", { cause: error }));
			});
		},
		pull() {
			decoded.resume();
		},
		cancel() {
			response.destroy();
		},
	});
}

function abortReason(signal: AbortSignal): unknown {
	return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** What this transport sends itself; anything else goes to Node's `fetch`. */
function sendsItself(input: FetchInput, init: RequestInit | undefined): URL | undefined {
	// A replaced global `fetch` (a test's, an instrumentation's) sees every request, as before.
	if (globalThis.fetch !== nodeFetch) return undefined;
	if (typeof input !== "string" && !(input instanceof URL)) return undefined;
	const url = new URL(input);
	if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
	// A proxy is undici's dispatcher's job (docs/providers.md), and so is a body that streams.
	if (proxyForUrl(url.href) !== undefined) return undefined;
	const body = init?.body;
	if (body !== undefined && body !== null && typeof body !== "string" && !(body instanceof Uint8Array)) {
		return undefined;
	}
	return url;
}

/**
 * A `fetch` for provider SDKs over `node:http`: Node's own `fetch` (undici) costs a few milliseconds of
 * CPU per request over `node:http` and more on the first (docs/design/ai-adapters.md#http-transport).
 * It sends the same request (method, headers with `fetch`'s defaults, body) and resolves to a real
 * `Response` with the decoded body; an abort rejects with the signal's reason and errors a body being
 * read, a network error rejects as `fetch` does (`TypeError: fetch failed` with the cause). A redirect,
 * a proxy variable, a streamed body or a replaced global `fetch` leave the request to Node's `fetch`.
 */
export async function nodeHttpFetch(input: FetchInput, init?: RequestInit): Promise<Response> {
	const url = sendsItself(input, init);
	if (!url) return globalThis.fetch(input, init);
	const signal = init?.signal ?? undefined;
	if (signal?.aborted) throw abortReason(signal);
	const request = await requestFor(url.protocol);
	const headers = headerRecord(init?.headers);
	for (const [name, value] of Object.entries(FETCH_DEFAULT_HEADERS)) headers[name] ??= value;
	const body = init?.body as string | Uint8Array | null | undefined;
	const options: RequestOptions = { method: init?.method ?? "GET", headers };
	const response = await new Promise<IncomingMessage>((resolve, reject) => {
		let received: IncomingMessage | undefined;
		const sent = request(url, options, (incoming) => {
			received = incoming;
			resolve(incoming);
		});
		const onAbort = () => {
			const reason = abortReason(signal as AbortSignal);
			reject(reason);
			// After the headers, the body being read fails with the abort's reason.
			(received ?? sent).destroy(reason instanceof Error ? reason : undefined);
		};
		signal?.addEventListener("abort", onAbort, { once: true });
		// The listener stays until the response is over: an abort while the body is read errors it.
		sent.on("close", () => signal?.removeEventListener("abort", onAbort));
		sent.on("error", (error) => {
			if (signal?.aborted) reject(abortReason(signal));
			else reject(new TypeError("fetch failed", { cause: error }));
		});
		sent.end(body ?? undefined);
	});
	if (response.statusCode !== undefined && response.statusCode >= 300 && response.statusCode < 400) {
		if (response.headers.location !== undefined) {
			// Redirects follow `fetch`'s rules (method changes, limits): Node's `fetch` sends it again.
			response.destroy();
			return globalThis.fetch(input, init);
		}
	}
	const status = response.statusCode ?? 200;
	const responseHeaders = new Headers();
	const raw = response.rawHeaders;
	for (let i = 0; i + 1 < raw.length; i += 2) responseHeaders.append(raw[i] as string, raw[i + 1] as string);
	const nullBody = NULL_BODY_STATUSES.has(status) || options.method === "HEAD";
	if (nullBody) response.resume();
	const result = new Response(nullBody ? null : webBody(response, signal), {
		status,
		statusText: response.statusMessage ?? "",
		headers: responseHeaders,
	});
	Object.defineProperty(result, "url", { value: url.href });
	return result;
}
