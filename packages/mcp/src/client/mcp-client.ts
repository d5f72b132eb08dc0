import {
	abortReason,
	errorMessage,
	JSON_RPC_ERROR_CODES,
	McpAbortError,
	McpConnectionClosedError,
	McpError,
	McpTimeoutError,
} from "../errors.js";
import {
	type CallToolResult,
	type Implementation,
	type InitializeResult,
	isNotification,
	isRequest,
	type JsonRpcMessage,
	type JsonRpcRequest,
	type JsonRpcResponse,
	LATEST_PROTOCOL_VERSION,
	type ReadResourceResult,
	type Resource,
	type ResourceTemplate,
	type Root,
	type ServerCapabilities,
	SUPPORTED_PROTOCOL_VERSIONS,
	type SupportedProtocolVersion,
	type Tool,
} from "../protocol.js";
import { Listeners, type McpTransport } from "../transport/transport.js";
import {
	paginate,
	readPage,
	validateCallToolResult,
	validateInitializeResult,
	validateReadResourceResult,
	validateResource,
	validateResourceTemplate,
	validateTool,
} from "./validation.js";

/** Options of `McpClient`: the identity and capabilities it announces, the default request timeout and the roots it exposes. */
export interface McpClientOptions {
	name: string;
	version: string;
	title?: string;
	capabilities?: {
		experimental?: Record<string, unknown>;
		roots?: { listChanged?: boolean };
		sampling?: Record<string, unknown>;
		elicitation?: Record<string, unknown>;
	};
	protocolVersion?: SupportedProtocolVersion;
	/** Default per-request timeout (30000); non-finite or ≤ 0 disables it. */
	requestTimeoutMs?: number;
	roots?: readonly Root[] | (() => readonly Root[] | Promise<readonly Root[]>);
}

/** A progress notification of a running request, as the server reported it. */
export interface McpProgress {
	progressToken: string | number;
	progress: number;
	total?: number;
	message?: string;
}

/** Per-request options: abort signal, timeout and a progress callback (which also asks the server for progress). */
export interface McpRequestOptions {
	signal?: AbortSignal;
	timeoutMs?: number;
	onProgress?(progress: McpProgress): void;
}

/** Where a client is in its lifecycle: not yet connected, in the handshake, ready, or closed for good. */
export type McpConnectionState = "idle" | "connecting" | "connected" | "closed";
type RequestHandler = (params: Record<string, unknown> | undefined, extra: { signal: AbortSignal }) => unknown;
type NotificationListener = (params: Record<string, unknown> | undefined) => void;

interface Pending {
	method: string;
	resolve(value: unknown): void;
	reject(error: unknown): void;
	onProgress: ((progress: McpProgress) => void) | undefined;
	rearm(): void;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** An MCP client over any transport: handshake, correlation, timeouts, progress and cancellation. */
export class McpClient {
	connectionState: McpConnectionState = "idle";
	serverInfo: Implementation | undefined;
	serverCapabilities: ServerCapabilities | undefined;
	instructions: string | undefined;
	protocolVersion: string | undefined;

	private transport: McpTransport | undefined;
	private detachTransport: (() => void)[] = [];
	private nextId = 1;
	private readonly pending = new Map<number, Pending>();
	private readonly incoming = new Map<string | number, AbortController>();
	private readonly handlers = new Map<string, RequestHandler>();
	private readonly notificationListeners = new Map<string, Listeners<[Record<string, unknown> | undefined]>>();
	private readonly errorListeners = new Listeners<[Error]>();
	private readonly closeListeners = new Listeners<[]>();

	constructor(private readonly options: McpClientOptions) {
		this.handlers.set("ping", () => ({}));
		if (options.roots) {
			const roots = options.roots;
			this.handlers.set("roots/list", async () => ({
				roots: [...(typeof roots === "function" ? await roots() : roots)],
			}));
		}
	}

	async connect(transport: McpTransport): Promise<InitializeResult> {
		if (this.connectionState !== "idle")
			throw new Error(`connect() needs an idle client (state: ${this.connectionState})`);
		this.connectionState = "connecting";
		this.transport = transport;
		this.detachTransport = [
			transport.onMessage((message) => this.receive(message)),
			transport.onError((error) => this.errorListeners.emit(error)),
			transport.onClose(() => this.handleClose()),
		];
		try {
			await transport.start();
			const capabilities: Record<string, unknown> = { ...this.options.capabilities };
			if (this.options.roots && capabilities.roots === undefined) capabilities.roots = {};
			const clientInfo: Implementation = { name: this.options.name, version: this.options.version };
			if (this.options.title !== undefined) clientInfo.title = this.options.title;
			const raw = await this.sendRequest("initialize", {
				protocolVersion: this.options.protocolVersion ?? LATEST_PROTOCOL_VERSION,
				capabilities,
				clientInfo,
			});
			const result = validateInitializeResult(raw);
			if (!(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(result.protocolVersion)) {
				throw new McpError(
					JSON_RPC_ERROR_CODES.invalidRequest,
					`Server protocol version ${result.protocolVersion} is not supported`,
				);
			}
			this.serverInfo = result.serverInfo;
			this.serverCapabilities = result.capabilities;
			this.instructions = result.instructions;
			this.protocolVersion = result.protocolVersion;
			transport.setProtocolVersion?.(result.protocolVersion);
			this.connectionState = "connected";
			await this.notify("notifications/initialized");
			return result;
		} catch (error) {
			await this.close();
			throw error;
		}
	}

	request<R = unknown>(method: string, params?: Record<string, unknown>, options?: McpRequestOptions): Promise<R> {
		if (this.connectionState !== "connected") {
			return Promise.reject(new McpConnectionClosedError(`MCP client is ${this.connectionState}`));
		}
		return this.sendRequest(method, params, options) as Promise<R>;
	}

	async notify(method: string, params?: Record<string, unknown>): Promise<void> {
		if (this.connectionState !== "connected" || !this.transport) {
			throw new McpConnectionClosedError(`MCP client is ${this.connectionState}`);
		}
		await this.transport.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
	}

	setRequestHandler(method: string, handler: RequestHandler): () => void {
		this.handlers.set(method, handler);
		return () => {
			if (this.handlers.get(method) === handler) this.handlers.delete(method);
		};
	}

	onNotification(method: string, listener: NotificationListener): () => void {
		let set = this.notificationListeners.get(method);
		if (!set) {
			set = new Listeners();
			this.notificationListeners.set(method, set);
		}
		return set.add(listener);
	}
	onError(listener: (error: Error) => void): () => void {
		return this.errorListeners.add(listener);
	}
	onClose(listener: () => void): () => void {
		return this.closeListeners.add(listener);
	}

	async ping(options?: McpRequestOptions): Promise<void> {
		await this.request("ping", undefined, options);
	}

	listTools(options?: McpRequestOptions): Promise<Tool[]> {
		return paginate(
			(cursor) => this.request("tools/list", cursor === undefined ? undefined : { cursor }, options),
			"tools",
			validateTool,
		);
	}
	listResources(options?: McpRequestOptions): Promise<Resource[]> {
		return paginate(
			(cursor) => this.request("resources/list", cursor === undefined ? undefined : { cursor }, options),
			"resources",
			validateResource,
		);
	}
	async listResourcesPage(
		cursor?: string,
		options?: McpRequestOptions,
	): Promise<{ resources: Resource[]; nextCursor?: string }> {
		const page = readPage(
			await this.request("resources/list", cursor === undefined ? undefined : { cursor }, options),
			"resources",
			validateResource,
		);
		return page.nextCursor === undefined
			? { resources: page.items }
			: { resources: page.items, nextCursor: page.nextCursor };
	}
	listResourceTemplates(options?: McpRequestOptions): Promise<ResourceTemplate[]> {
		return paginate(
			(cursor) => this.request("resources/templates/list", cursor === undefined ? undefined : { cursor }, options),
			"resourceTemplates",
			validateResourceTemplate,
		);
	}
	async listResourceTemplatesPage(
		cursor?: string,
		options?: McpRequestOptions,
	): Promise<{ resourceTemplates: ResourceTemplate[]; nextCursor?: string }> {
		const raw = await this.request(
			"resources/templates/list",
			cursor === undefined ? undefined : { cursor },
			options,
		);
		const page = readPage(raw, "resourceTemplates", validateResourceTemplate);
		return page.nextCursor === undefined
			? { resourceTemplates: page.items }
			: { resourceTemplates: page.items, nextCursor: page.nextCursor };
	}
	async readResource(uri: string, options?: McpRequestOptions): Promise<ReadResourceResult> {
		return validateReadResourceResult(await this.request("resources/read", { uri }, options));
	}
	async callTool(name: string, args?: Record<string, unknown>, options?: McpRequestOptions): Promise<CallToolResult> {
		const params: Record<string, unknown> = { name };
		if (args !== undefined) params.arguments = args;
		return validateCallToolResult(await this.request("tools/call", params, options));
	}

	async close(): Promise<void> {
		const transport = this.transport;
		this.handleClose();
		for (const detach of this.detachTransport) detach();
		this.detachTransport = [];
		this.notificationListeners.clear();
		this.errorListeners.clear();
		this.closeListeners.clear();
		await transport?.close();
	}

	private sendRequest(
		method: string,
		params: Record<string, unknown> | undefined,
		options: McpRequestOptions = {},
	): Promise<unknown> {
		const transport = this.transport;
		if (!transport) return Promise.reject(new McpConnectionClosedError());
		const { signal, onProgress } = options;
		if (signal?.aborted) return Promise.reject(new McpAbortError(abortReason(signal)));
		const id = this.nextId++;
		let sendParams = params;
		if (onProgress) {
			const meta = (params?._meta ?? {}) as Record<string, unknown>;
			sendParams = { ...params, _meta: { ...meta, progressToken: id } };
		}
		const request: JsonRpcRequest = { jsonrpc: "2.0", id, method };
		if (sendParams !== undefined) request.params = sendParams;
		const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
		const settled = new AbortController();
		return new Promise<unknown>((resolve, reject) => {
			let timer: ReturnType<typeof setTimeout> | undefined;
			const cleanup = () => {
				if (timer) clearTimeout(timer);
				signal?.removeEventListener("abort", onAbort);
				this.pending.delete(id);
				settled.abort();
			};
			const cancel = (reason: string) => {
				// The handshake is never cancelled (the spec forbids cancelling initialize).
				if (method === "initialize" || this.connectionState !== "connected") return;
				this.notify("notifications/cancelled", { requestId: id, reason }).catch(() => {});
			};
			const onAbort = () => {
				cleanup();
				const reason = signal ? abortReason(signal) : "aborted";
				cancel(reason);
				reject(new McpAbortError(reason));
			};
			const arm = () => {
				if (timer) clearTimeout(timer);
				if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return;
				timer = setTimeout(() => {
					cleanup();
					const error = new McpTimeoutError(method, timeoutMs);
					cancel(error.message);
					reject(error);
				}, timeoutMs);
			};
			this.pending.set(id, {
				method,
				resolve: (value) => {
					cleanup();
					resolve(value);
				},
				reject: (error) => {
					cleanup();
					reject(error);
				},
				onProgress,
				rearm: arm,
			});
			signal?.addEventListener("abort", onAbort, { once: true });
			arm();
			transport.send(request, { signal: settled.signal }).catch((error: unknown) => {
				const entry = this.pending.get(id);
				entry?.reject(error);
			});
		});
	}

	private receive(message: JsonRpcMessage): void {
		if (isRequest(message)) {
			void this.answer(message);
			return;
		}
		if (isNotification(message)) {
			this.dispatchNotification(message.method, message.params);
			return;
		}
		this.settle(message as JsonRpcResponse);
	}

	private settle(response: JsonRpcResponse): void {
		const entry = typeof response.id === "number" ? this.pending.get(response.id) : undefined;
		if (!entry) {
			this.errorListeners.emit(new Error(`Received a response for unknown request id ${String(response.id)}`));
			return;
		}
		if (response.error) entry.reject(new McpError(response.error.code, response.error.message, response.error.data));
		else entry.resolve(response.result);
	}

	private dispatchNotification(method: string, params: Record<string, unknown> | undefined): void {
		if (method === "notifications/progress" && params) {
			const entry = typeof params.progressToken === "number" ? this.pending.get(params.progressToken) : undefined;
			if (entry?.onProgress && typeof params.progress === "number") {
				entry.rearm();
				const progress: McpProgress = { progressToken: params.progressToken as number, progress: params.progress };
				if (typeof params.total === "number") progress.total = params.total;
				if (typeof params.message === "string") progress.message = params.message;
				this.guard(() => entry.onProgress?.(progress));
			}
		}
		if (method === "notifications/cancelled" && params) {
			const requestId = params.requestId;
			if (typeof requestId === "string" || typeof requestId === "number") {
				this.incoming.get(requestId)?.abort(typeof params.reason === "string" ? params.reason : "cancelled");
			}
		}
		const listeners = this.notificationListeners.get(method);
		if (listeners) this.guard(() => listeners.emit(params));
	}

	private async answer(request: JsonRpcRequest): Promise<void> {
		const handler = this.handlers.get(request.method);
		const transport = this.transport;
		const reply = async (
			body: { result: unknown } | { error: { code: number; message: string; data?: unknown } },
		) => {
			if (!transport || this.connectionState === "closed") return;
			await transport.send({ jsonrpc: "2.0", id: request.id, ...body }).catch((error: unknown) => {
				this.errorListeners.emit(error instanceof Error ? error : new Error(String(error)));
			});
		};
		if (!handler) {
			await reply({
				error: { code: JSON_RPC_ERROR_CODES.methodNotFound, message: `Method not found: ${request.method}` },
			});
			return;
		}
		const controller = new AbortController();
		this.incoming.set(request.id, controller);
		try {
			const result = await handler(request.params, { signal: controller.signal });
			if (!controller.signal.aborted) await reply({ result: result ?? {} });
		} catch (error) {
			if (controller.signal.aborted) return;
			const code = error instanceof McpError ? error.code : JSON_RPC_ERROR_CODES.internalError;
			const message = errorMessage(error);
			await reply({
				error:
					error instanceof McpError && error.data !== undefined
						? { code, message, data: error.data }
						: { code, message },
			});
		} finally {
			this.incoming.delete(request.id);
		}
	}

	private guard(fn: () => void): void {
		try {
			fn();
		} catch (error) {
			this.errorListeners.emit(error instanceof Error ? error : new Error(String(error)));
		}
	}

	private handleClose(): void {
		if (this.connectionState === "closed") return;
		this.connectionState = "closed";
		for (const entry of [...this.pending.values()]) entry.reject(new McpConnectionClosedError());
		for (const controller of this.incoming.values()) controller.abort("connection closed");
		this.incoming.clear();
		this.guard(() => this.closeListeners.emit());
	}
}
