import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import {
	McpAuthRequiredError,
	McpClient,
	McpConnectionClosedError,
	McpHttpError,
	McpOAuthAuthorizationRequiredError,
	McpSessionExpiredError,
	type McpTransport,
	type Tool,
} from "@tau/mcp";
import { hasOwnAuthorization } from "../config/entry-auth.js";
import type { McpServerEntry } from "../config/load-config.js";
import type { CreateMcpTransport, TransportContext } from "./create-transport.js";
import { describeFailure, exitDescription, stderrTail } from "./failure-reason.js";

export type McpConnectionState = "connecting" | "connected" | "disconnected" | "needs-auth" | "failed" | "closed";

export interface McpConnectionDeps {
	version: string;
	transportContext: TransportContext;
	createTransport: CreateMcpTransport;
	/** Waits between retries; injectable so tests need no real delays. */
	sleep(ms: number, signal: AbortSignal): Promise<void>;
	onLog(server: string, params: Record<string, unknown> | undefined): void;
	onToolsChanged(connection: McpServerConnection): void;
	onStateChange(connection: McpServerConnection): void;
}

/** Transient failures: HTTP 408, 429, 5xx except 501, or a network TypeError. */
export function isTransientMcpError(error: unknown): boolean {
	if (error instanceof McpHttpError) {
		return error.status === 408 || error.status === 429 || (error.status >= 500 && error.status !== 501);
	}
	return error instanceof TypeError;
}

const CONNECT_RETRY_DELAYS = [250, 1000];
const GENERIC_SIGN_IN = new McpOAuthAuthorizationRequiredError();

/** One server's live connection: single-flight connects, lazy reconnects, retry rules of D.3.1. */
export class McpServerConnection {
	state: McpConnectionState = "connecting";
	error: string | undefined;
	client: McpClient | undefined;
	tools: Tool[] = [];
	hasResources = false;
	instructions: string | undefined;
	/** Settles (never rejects) when the latest connect attempt finished. */
	ready: Promise<void> = Promise.resolve();
	private connecting: Promise<McpClient> | undefined;
	/** The client of a connect in progress: close() closes it, which cancels the handshake or listing. */
	private opening: McpClient | undefined;
	private readonly shutdown = new AbortController();
	/** The transport of the latest attempt, for its stderr and exit status. */
	private transport: McpTransport | undefined;
	/** Transports not yet closed, released when the host stops waiting for them (release()). */
	private readonly openTransports = new Set<McpTransport>();
	/** Clients whose session expired; closed at shutdown, not before, so their other calls can retry. */
	private readonly detached = new Set<McpClient>();

	constructor(
		readonly entry: McpServerEntry,
		private readonly deps: McpConnectionDeps,
	) {}

	get name(): string {
		return this.entry.name;
	}

	/** Connects unless a connect is already running or the connection is live. */
	connect(): Promise<McpClient> {
		if (this.shutdown.signal.aborted) return Promise.reject(new Error(`MCP server "${this.name}" is shut down`));
		if (this.client && this.state === "connected") return Promise.resolve(this.client);
		if (!this.connecting) {
			this.setState("connecting");
			const attempt = this.connectWithRetries().finally(() => {
				this.connecting = undefined;
			});
			this.connecting = attempt;
			this.ready = attempt.then(
				() => undefined,
				() => undefined,
			);
		}
		return this.connecting;
	}

	/**
	 * Runs one request on the live client. A session the server forgot means the request did not
	 * run, so it is retried once on a new session; `readOnly` requests also retry one transient HTTP error.
	 */
	async request<T>(
		run: (client: McpClient) => Promise<T>,
		options: { readOnly?: boolean; signal?: AbortSignal } = {},
	): Promise<T> {
		let retriedSession = false;
		let retriedTransient = false;
		for (;;) {
			const client = await this.connect();
			try {
				return await run(client);
			} catch (error) {
				if (error instanceof McpSessionExpiredError && !retriedSession) {
					retriedSession = true;
					this.detach(client);
					continue;
				}
				if (options.readOnly && !retriedTransient && error instanceof McpHttpError && isTransientMcpError(error)) {
					retriedTransient = true;
					await this.deps.sleep(250, options.signal ?? this.shutdown.signal);
					continue;
				}
				if (this.needsSignIn(error)) {
					if (this.client === client) this.client = undefined;
					await client.close().catch(() => {});
					this.markNeedsAuth(error);
					throw new Error(this.error);
				}
				throw error;
			}
		}
	}

	/**
	 * Closes the connection, cancelling a connect in progress (its process is stopped, its sockets
	 * closed); resolves once every transport of this server is closed.
	 */
	async close(): Promise<void> {
		this.shutdown.abort();
		const clients = [this.client, this.opening, ...this.detached];
		this.client = undefined;
		this.opening = undefined;
		this.detached.clear();
		this.setState("closed");
		await Promise.all(clients.map((client) => client?.close().catch(() => {})));
		await this.connecting?.catch(() => {});
	}

	/** For a host that stops waiting for close(): what is still closing no longer holds the process. */
	release(): void {
		for (const transport of this.openTransports) transport.release?.();
	}

	private async connectWithRetries(): Promise<McpClient> {
		const delays = this.entry.transport === "http" ? CONNECT_RETRY_DELAYS : [];
		for (let attempt = 0; ; attempt++) {
			try {
				return await this.connectOnce();
			} catch (error) {
				if (this.shutdown.signal.aborted) throw error;
				const delay = delays[attempt];
				if (delay !== undefined && isTransientMcpError(error)) {
					await this.deps.sleep(delay, this.shutdown.signal);
					if (!this.shutdown.signal.aborted) continue;
				}
				if (this.needsSignIn(error)) this.markNeedsAuth(error);
				else {
					this.error = describeFailure(error, this.entry, this.transport);
					this.setState("failed");
				}
				throw new Error(this.error);
			}
		}
	}

	private async connectOnce(): Promise<McpClient> {
		const { cwd } = this.deps.transportContext;
		const timeoutSeconds = this.entry.config.timeout ?? 60;
		const client = new McpClient({
			name: "tau",
			version: this.deps.version,
			requestTimeoutMs: timeoutSeconds * 1000,
			roots: [{ uri: pathToFileURL(cwd).href, name: basename(cwd) }],
		});
		const transport = this.deps.createTransport(this.entry, this.deps.transportContext);
		this.transport = transport;
		this.openTransports.add(transport);
		transport.onClose(() => this.openTransports.delete(transport));
		this.opening = client;
		client.onNotification("notifications/message", (params) => this.deps.onLog(this.name, params));
		client.onError(() => {});
		try {
			await client.connect(transport);
			const capabilities = client.serverCapabilities ?? {};
			const tools = capabilities.tools ? await client.listTools() : [];
			if (this.shutdown.signal.aborted || client.connectionState !== "connected") {
				throw new McpConnectionClosedError("MCP connection closed during startup");
			}
			this.tools = tools;
			this.hasResources = capabilities.resources !== undefined;
			this.instructions = client.instructions?.trim() || undefined;
		} catch (error) {
			await client.close().catch(() => {});
			throw error;
		} finally {
			if (this.opening === client) this.opening = undefined;
		}
		client.onNotification("notifications/tools/list_changed", () => {
			void this.refreshTools(client);
		});
		client.onClose(() => {
			if (this.client !== client) return;
			this.client = undefined;
			if (this.state === "closed") return;
			const exit = exitDescription(transport);
			const tail = stderrTail(transport);
			this.error = `Connection closed${exit ? `: ${exit}` : ""}${tail ? `\n${tail}` : ""}`;
			this.setState("disconnected");
		});
		this.client = client;
		this.error = undefined;
		this.setState("connected");
		return client;
	}

	private async refreshTools(client: McpClient): Promise<void> {
		try {
			this.tools = await client.listTools();
			this.deps.onToolsChanged(this);
		} catch (error) {
			this.error = `Refreshing tools failed: ${(error as Error).message}`;
		}
	}

	/** Drops a client without closing its session, so other in-flight calls can still finish or retry. */
	private detach(client: McpClient): void {
		if (this.client === client) this.client = undefined;
		this.detached.add(client);
	}

	/** A 401 is a missing sign-in only when tau supplies the credential (OAuth or a `/login` provider). */
	private needsSignIn(error: unknown): boolean {
		if (error instanceof McpOAuthAuthorizationRequiredError) return true;
		return error instanceof McpAuthRequiredError && !hasOwnAuthorization(this.entry);
	}

	private markNeedsAuth(error: unknown): void {
		const provider =
			this.entry.transport === "http" && "auth" in this.entry.config && this.entry.config.auth
				? (this.entry.config.auth as { provider: string }).provider
				: undefined;
		// The generic "requires sign-in" adds nothing; a refresh failure or a scope request does.
		const reason =
			error instanceof McpOAuthAuthorizationRequiredError && error.message !== GENERIC_SIGN_IN.message
				? error.message
				: undefined;
		this.error = `MCP server "${this.name}" needs sign-in: run /mcp login ${this.name}${
			provider ? ` (or /login ${provider})` : ""
		}${reason ? `\n${reason}` : ""}`;
		this.setState("needs-auth");
	}

	private setState(state: McpConnectionState): void {
		if (this.state === "closed" && state !== "closed") return;
		this.state = state;
		this.deps.onStateChange(this);
	}
}
