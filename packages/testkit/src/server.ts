import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { errorMessage } from "./error-message.js";
import { anthropicMessages } from "./protocols/anthropic-messages.js";
import { bedrockConverse } from "./protocols/bedrock-converse.js";
import { googleGenerativeAi } from "./protocols/google-generative-ai.js";
import { mistralChat } from "./protocols/mistral-chat.js";
import { openAiChat } from "./protocols/openai-chat.js";
import { openAiResponses } from "./protocols/openai-responses.js";
import { piMessages } from "./protocols/pi-messages.js";
import type { ProtocolContext, WireProtocol } from "./protocols/protocol.js";
import { type RecordedRequest, RequestLog, type RequestOutcome } from "./request-log.js";
import { type BodyCut, type WriteResult, whenClosed, writeBody } from "./response-writer.js";
import { resolveTurn } from "./scenario/resolve.js";
import type { MockFault, MockTurn, RawTurn, ScriptedReply } from "./scenario/turn.js";

/** Builds the reply for a request from its parsed body and headers. */
export type TurnFactory = (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;

/** Options of `startMockLlmServer`: required API key, queued replies and a factory for further requests. */
export interface MockLlmServerOptions {
	/** When set, requests must carry it as `x-api-key`, `api-key` or `Authorization: Bearer`; else 401. */
	apiKey?: string;
	/** Replies queued before the first request. */
	replies?: ReadonlyArray<ScriptedReply | TurnFactory>;
	/** Answers requests once the queue is empty. */
	factory?: TurnFactory;
	/** Port on 127.0.0.1 (default 0: a random free port). */
	port?: number;
	/** Close after this long without requests in flight (default 5 min; 0 disables). */
	idleTimeoutMs?: number;
	/** Close this long after starting, whatever is in flight (default 30 min; 0 disables). */
	maxLifetimeMs?: number;
	/** Keep the process alive while listening (default false: server, sockets and timers are unref'd). */
	keepProcessAlive?: boolean;
	/**
	 * Served models, listed at `GET …/models` in the OpenAI list format (as Ollama, llama.cpp, vLLM and
	 * LM Studio serve it); a string is a model id, an object is sent as the entry. Unset: no list route.
	 */
	models?: ReadonlyArray<string | Record<string, unknown>>;
}

/** A running mock LLM server: its URL, the requests it received, replies to queue and `close`. */
export interface MockLlmServer {
	/** `http://127.0.0.1:<port>` — the Anthropic SDK's baseURL; OpenAI SDKs want `url("/v1")`. */
	readonly baseUrl: string;
	url(path: string): string;
	/** Every request received, in order. */
	readonly requests: readonly RecordedRequest[];
	/** Number of queued replies not yet used. */
	readonly pending: number;
	/** Queues replies (or per-request factories), consumed one per protocol request. */
	enqueue(...replies: Array<ScriptedReply | TurnFactory>): void;
	/** Sets (or clears) the factory that answers once the queue is empty. */
	setFactory(factory: TurnFactory | undefined): void;
	/** Resolves once request `index` has been received. */
	waitForRequest(index: number): Promise<RecordedRequest>;
	/** Resolves once the exchange of request `index` has ended (see `RecordedRequest.outcome`). */
	waitForSettled(index: number): Promise<RecordedRequest>;
	/** Stops listening and destroys open connections, which releases stalled responses. */
	close(): Promise<void>;
	/** Resolves when the server has closed, by `close()` or by its lifetime limits. */
	readonly closed: Promise<void>;
}

const PROTOCOLS: readonly WireProtocol[] = [
	// Before Anthropic's, whose `/messages` path it shares under its own prefix.
	piMessages,
	anthropicMessages,
	mistralChat,
	openAiChat,
	openAiResponses,
	googleGenerativeAi,
	bedrockConverse,
];
const DEFAULT_IDLE_MS = 5 * 60_000;
const DEFAULT_LIFETIME_MS = 30 * 60_000;

function protocolFor(pathname: string): WireProtocol | undefined {
	return PROTOCOLS.find((protocol) => protocol.matches(pathname));
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
	}
	return headers;
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
		req.on("error", reject);
	});
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** The key as each provider sends it: a key header, a bearer token, or the access key id of an AWS SigV4 signature. */
function hasKey(headers: Record<string, string>, key: string): boolean {
	return (
		headers["x-api-key"] === key ||
		headers["api-key"] === key ||
		headers["x-goog-api-key"] === key ||
		headers.authorization === `Bearer ${key}` ||
		(headers.authorization?.startsWith(`AWS4-HMAC-SHA256 Credential=${key}/`) ?? false)
	);
}

function isStreaming(protocol: WireProtocol | undefined, pathname: string, body: unknown): boolean {
	const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
	return protocol?.isStreaming ? protocol.isStreaming(pathname, record) : record.stream === true;
}

/** The OpenAI-style model list: `{ object: "list", data: [{ id, object: "model", … }] }`. */
function modelList(models: ReadonlyArray<string | Record<string, unknown>>, created: number): unknown {
	const data = models.map((model) =>
		typeof model === "string" ? { id: model, object: "model", created, owned_by: "mock-llm" } : model,
	);
	return { object: "list", data };
}

function isRaw(reply: ScriptedReply): reply is RawTurn {
	return "raw" in reply;
}

function bodyCut(fault: MockFault | undefined): BodyCut | undefined {
	if (fault?.kind !== "disconnect" && fault?.kind !== "truncate" && fault?.kind !== "stall") return undefined;
	if (fault.afterBytes === undefined && fault.afterEvents === undefined) return undefined;
	return { afterBytes: fault.afterBytes, afterEvents: fault.afterEvents, action: fault.kind };
}

/**
 * Starts a mock LLM server on 127.0.0.1 that answers the real wire protocols with scripted replies, and records every
 * request.
 */
export async function startMockLlmServer(options: MockLlmServerOptions = {}): Promise<MockLlmServer> {
	const log = new RequestLog();
	const queue: Array<ScriptedReply | TurnFactory> = [...(options.replies ?? [])];
	let factory = options.factory;
	let idCounter = 0;
	let inFlight = 0;
	let closing = false;
	const sockets = new Set<Socket>();
	const keepAlive = options.keepProcessAlive === true;

	const newId = (prefix: string) => `${prefix}${(++idCounter).toString().padStart(6, "0")}`;

	const server = createServer((req, res) => {
		inFlight++;
		idle.stop();
		handle(req, res)
			.catch((error: unknown) => {
				// A malformed scripted reply should read as a failed request, not a silent hang-up.
				if (res.headersSent) return res.destroy();
				const message = errorMessage(error);
				sendJson(res, 500, { error: { message: `mock-llm: cannot serve the scripted reply: ${message}` } });
			})
			.finally(() => {
				inFlight--;
				if (inFlight === 0 && !closing) idle.start();
			});
	});
	server.on("connection", (socket) => {
		sockets.add(socket);
		// Each SSE event must leave at once; Nagle plus delayed ACKs would add ~40 ms per small write.
		socket.setNoDelay(true);
		if (!keepAlive) socket.unref();
		socket.once("close", () => sockets.delete(socket));
	});

	const settle = (entry: RecordedRequest, res: ServerResponse, result: WriteResult | RequestOutcome) => {
		entry.status = res.headersSent ? res.statusCode : undefined;
		const outcome: RequestOutcome = result === "closed" ? (closing ? "server-closed" : "client-closed") : result;
		log.settle(entry, outcome);
	};

	const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
		const text = typeof body === "string" ? body : JSON.stringify(body);
		res.writeHead(status, { "content-type": "application/json", ...headers });
		res.end(text);
	};

	async function nextReply(entry: RecordedRequest): Promise<ScriptedReply | Error> {
		const item = queue.length > 0 ? queue.shift() : factory;
		if (item === undefined) return new Error(`mock-llm: no scripted reply queued for request #${entry.index}`);
		if (typeof item !== "function") return item;
		try {
			return await item(entry);
		} catch (error) {
			return new Error(`mock-llm: reply factory failed: ${errorMessage(error)}`);
		}
	}

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const rawBody = await readBody(req);
		const path = req.url ?? "/";
		const pathname = new URL(path, "http://127.0.0.1").pathname;
		const protocol = req.method === "POST" ? protocolFor(pathname) : undefined;
		const body = parseJson(rawBody);
		const headers = flatHeaders(req);
		const entry = log.add({
			method: req.method ?? "GET",
			path,
			protocol: protocol?.name,
			headers,
			body,
			rawBody,
			stream: isStreaming(protocol, pathname, body),
			receivedAt: Date.now(),
		});
		// Deferred so an outcome the handler records itself (e.g. "disconnected") takes precedence.
		res.once("close", () => setImmediate(() => settle(entry, res, "closed")));
		if (req.method === "GET" && pathname.endsWith("/models") && options.models !== undefined) {
			if (options.apiKey !== undefined && !hasKey(headers, options.apiKey)) {
				sendJson(res, 401, { error: { message: "mock-llm: invalid key", type: "invalid_request_error" } });
			} else sendJson(res, 200, modelList(options.models, Math.floor(entry.receivedAt / 1000)));
			return settle(entry, res, "completed");
		}
		if (protocol === undefined) {
			sendJson(res, 404, {
				error: { message: `mock-llm: no route for ${req.method} ${pathname}`, type: "not_found" },
			});
			return settle(entry, res, "completed");
		}
		const requestBody = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
		const ctx: ProtocolContext = {
			requestBody,
			requestModel:
				protocol.modelFromPath?.(pathname) ??
				(typeof requestBody.model === "string" ? requestBody.model : "mock-model"),
			requestBytes: Buffer.byteLength(rawBody),
			createdAt: Math.floor(entry.receivedAt / 1000),
			newId,
		};
		const idHeader = { [protocol.requestIdHeader]: newId("req_mock_") };
		const fail = (status: number, message: string) => {
			sendJson(res, status, protocol.errorBody({ status, message }, ctx), idHeader);
			settle(entry, res, "completed");
		};
		if (options.apiKey !== undefined && !hasKey(headers, options.apiKey)) {
			sendJson(res, 401, protocol.errorBody({ status: 401 }, ctx), idHeader);
			return settle(entry, res, "completed");
		}
		if (body === undefined) return fail(400, "mock-llm: the request body is not valid JSON");
		const reply = await nextReply(entry);
		if (reply instanceof Error) return fail(500, reply.message);
		if (isRaw(reply)) {
			res.writeHead(reply.status ?? 200, { "content-type": "text/event-stream", ...idHeader, ...reply.headers });
			const pieces = typeof reply.raw === "string" ? [reply.raw] : reply.raw;
			return settle(entry, res, await writeBody(res, pieces, undefined));
		}
		settle(entry, res, await respond(reply, protocol, ctx, res, entry.stream, idHeader));
	}

	async function respond(
		turn: MockTurn,
		protocol: WireProtocol,
		ctx: ProtocolContext,
		res: ServerResponse,
		stream: boolean,
		idHeader: Record<string, string>,
	): Promise<WriteResult> {
		const fault = turn.fault;
		if (fault?.kind === "http") {
			const headers: Record<string, string> = { ...idHeader, ...fault.headers };
			if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
			const body =
				fault.body ??
				protocol.errorBody(
					{ status: fault.status, message: fault.message, type: fault.type, code: fault.code },
					ctx,
				);
			sendJson(res, fault.status, body, headers);
			return "completed";
		}
		if (fault?.kind === "overflow") {
			sendJson(res, 400, protocol.overflowBody(fault.inputTokens, fault.contextWindow, ctx), idHeader);
			return "completed";
		}
		if (fault?.kind === "stall" && bodyCut(fault) === undefined) return whenClosed(res);
		const resolved = resolveTurn(turn, ctx);
		const corrupt = fault?.kind === "malformed";
		if (!stream) {
			const reply = protocol.jsonReply(resolved, ctx);
			const text = JSON.stringify(reply.body);
			res.writeHead(reply.status, { "content-type": "application/json", ...idHeader });
			const body = corrupt ? (fault.line ?? text.slice(0, -1)) : text;
			return writeBody(res, [body], bodyCut(fault));
		}
		res.writeHead(200, {
			"content-type": protocol.streamContentType ?? "text/event-stream; charset=utf-8",
			"cache-control": "no-cache",
			...idHeader,
		});
		const corruption = corrupt
			? {
					afterEvents: fault.afterEvents ?? 1,
					frame: fault.line === undefined ? protocol.malformedFrame() : `${fault.line}\n\n`,
				}
			: undefined;
		const pace = turn.framesPerSecond ? { framesPerSecond: turn.framesPerSecond } : undefined;
		return writeBody(res, protocol.streamFrames(resolved, ctx), bodyCut(fault), corruption, pace);
	}

	let resolveClosed!: () => void;
	const closed = new Promise<void>((resolve) => {
		resolveClosed = resolve;
	});
	server.once("close", () => resolveClosed());

	const close = (): Promise<void> => {
		if (!closing) {
			closing = true;
			idle.stop();
			clearTimeout(lifetime);
			server.close();
			for (const socket of sockets) socket.destroy();
		}
		return closed;
	};

	const idle = idleTimer(options.idleTimeoutMs ?? DEFAULT_IDLE_MS, keepAlive, close);
	const lifetimeMs = options.maxLifetimeMs ?? DEFAULT_LIFETIME_MS;
	const lifetime = lifetimeMs > 0 ? setTimeout(close, lifetimeMs) : undefined;
	if (!keepAlive) lifetime?.unref();

	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(options.port ?? 0, "127.0.0.1", () => {
			server.off("error", reject);
			resolve();
		});
	});
	if (!keepAlive) server.unref();
	idle.start();
	const address = server.address();
	const port = typeof address === "object" && address !== null ? address.port : 0;
	const baseUrl = `http://127.0.0.1:${port}`;

	return {
		baseUrl,
		url: (path) => `${baseUrl}${path.startsWith("/") ? path : `/${path}`}`,
		requests: log.entries,
		get pending() {
			return queue.length;
		},
		enqueue: (...replies) => {
			queue.push(...replies);
		},
		setFactory: (next) => {
			factory = next;
		},
		waitForRequest: (index) => log.waitFor(index, () => true),
		waitForSettled: (index) => log.waitFor(index, (entry) => entry.outcome !== undefined),
		close,
		closed,
	};
}

/** A restartable timer that calls `onExpire` after `ms` of idleness; `ms` 0 disables it. */
function idleTimer(ms: number, keepAlive: boolean, onExpire: () => void) {
	let timer: NodeJS.Timeout | undefined;
	return {
		start() {
			if (ms <= 0) return;
			clearTimeout(timer);
			timer = setTimeout(onExpire, ms);
			if (!keepAlive) timer.unref();
		},
		stop() {
			clearTimeout(timer);
			timer = undefined;
		},
	};
}
