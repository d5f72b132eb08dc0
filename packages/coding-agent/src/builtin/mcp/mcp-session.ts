import type { McpExposure } from "@tau/mcp";
import type { AnyToolDefinition, ExtensionAPI, ToolExposure } from "../../core/extensions/index.js";
import type { McpConfig, McpServerEntry } from "./config/load-config.js";
import { type McpConnectionDeps, McpServerConnection } from "./connection/server-connection.js";
import { toToolExposure } from "./exposure.js";
import { RESOURCE_TOOL_NAMES } from "./tools/resource-tool-names.js";
import { createResourceTools } from "./tools/resource-tools.js";
import { ServerTools } from "./tools/server-tools.js";

const EXPOSURE_RANK: Record<string, number> = { direct: 3, codemode: 2, deferred: 1 };
/** How long session shutdown waits for servers to close before letting tau exit anyway. */
const SHUTDOWN_WAIT_MS = 100;

/** Whether `promise` settled within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const expired = new Promise<boolean>((resolve) => {
		timer = setTimeout(() => resolve(false), ms);
	});
	try {
		return await Promise.race([promise.then(() => true), expired]);
	} finally {
		clearTimeout(timer);
	}
}

/** Connections and registered tools of one session. */
export class McpSession {
	readonly connections = new Map<string, McpServerConnection>();
	private readonly serverTools = new Map<string, ServerTools>();
	/** Registered name => `<server>\0<tool>`, for the whole session. */
	private readonly owners = new Map<string, string>();
	private resourceExposure: ToolExposure | undefined;
	private readonly tracked = new Set<Promise<unknown>>();
	/** OAuth providers of this session's transports: a refresh already sent must still be saved. */
	private readonly oauthProviders = new Set<{ settled(): Promise<void> }>();

	constructor(
		public config: McpConfig,
		private readonly pi: ExtensionAPI,
		private readonly deps: Omit<McpConnectionDeps, "onToolsChanged" | "onStateChange"> & {
			onStateChange?(connection: McpServerConnection): void;
		},
	) {}

	enabledEntries(): McpServerEntry[] {
		return this.config.servers.filter((entry) => entry.enabled);
	}

	/** Whether every enabled server was started (connectAll); until then servers start on demand. */
	started = false;

	/** Starts background connects of every enabled server without a connection. */
	connectAll(): void {
		this.started = true;
		this.ensureConnecting(this.enabledEntries());
	}

	/** The connections of `entries`, starting a connect for each that has none yet. */
	ensureConnecting(entries: readonly McpServerEntry[]): McpServerConnection[] {
		return entries.map((entry) => this.connections.get(entry.name) ?? this.connectServer(entry));
	}

	connectServer(entry: McpServerEntry): McpServerConnection {
		let connection = this.connections.get(entry.name);
		if (!connection) {
			connection = new McpServerConnection(entry, {
				...this.deps,
				onToolsChanged: (changed) => this.syncTools(changed),
				onStateChange: (changed) => this.deps.onStateChange?.(changed),
			});
			this.connections.set(entry.name, connection);
		}
		const started = connection.connect().then(
			() => this.syncTools(connection),
			() => undefined,
		);
		this.track(started);
		return connection;
	}

	/** Closes and hides a server (removed, disabled or reconfigured). */
	async dropServer(name: string): Promise<void> {
		const connection = this.connections.get(name);
		this.connections.delete(name);
		this.serverTools.get(name)?.hideAll();
		await connection?.close();
		this.syncResourceTools();
	}

	connectionFor(server: string): McpServerConnection | undefined {
		const connection = this.connections.get(server);
		return connection?.entry.enabled ? connection : undefined;
	}

	/** Server of a registered MCP tool name. */
	serverOfTool(name: string): string | undefined {
		const owner = this.owners.get(name);
		return owner?.split("\0")[0];
	}

	syncTools(connection: McpServerConnection): void {
		if (this.connections.get(connection.name) !== connection) return;
		let tools = this.serverTools.get(connection.name);
		if (!tools) {
			tools = new ServerTools(connection.name, this.owners, {
				register: (definition) => this.pi.registerTool(definition),
				activate: (names) => this.pi.setActiveTools([...this.pi.getActiveTools(), ...names]),
				connectionFor: (server) => this.connectionFor(server),
			});
			this.serverTools.set(connection.name, tools);
		}
		tools.sync(connection);
		this.syncResourceTools();
	}

	/** Resource tools take the widest exposure among enabled, non-hidden servers with resources (D.10). */
	syncResourceTools(): void {
		let best: McpExposure | undefined;
		for (const connection of this.connections.values()) {
			if (!connection.entry.enabled || !connection.hasResources) continue;
			const exposure = connection.entry.config.exposure ?? "codemode";
			if (exposure === "hidden") continue;
			if (!best || (EXPOSURE_RANK[exposure] ?? 0) > (EXPOSURE_RANK[best] ?? 0)) best = exposure;
		}
		const exposure: ToolExposure = best ? toToolExposure(best) : "hidden";
		if (exposure === this.resourceExposure) return;
		if (this.resourceExposure === undefined && exposure === "hidden") return;
		const wasDirect = this.resourceExposure === "direct";
		this.resourceExposure = exposure;
		const tools: AnyToolDefinition[] = createResourceTools(exposure, {
			resourceServers: () =>
				[...this.connections.values()]
					.filter((connection) => connection.entry.enabled && connection.hasResources)
					.sort((a, b) => (a.name < b.name ? -1 : 1)),
			connectionFor: (server) => this.connectionFor(server),
		});
		for (const tool of tools) this.pi.registerTool(tool);
		if (wasDirect && exposure !== "direct") {
			const names = new Set<string>(RESOURCE_TOOL_NAMES);
			this.pi.setActiveTools(this.pi.getActiveTools().filter((name) => !names.has(name)));
		}
	}

	track<T>(promise: Promise<T>): void {
		this.tracked.add(promise);
		void promise.finally(() => this.tracked.delete(promise));
	}

	watchOAuthProvider(provider: { settled(): Promise<void> }): void {
		this.oauthProviders.add(provider);
	}

	/**
	 * Closes every server, cancelling connects in progress, and waits at most `waitMs` (docs/mcp.md:
	 * nothing MCP does delays exiting). What is still closing then stops holding the process: a
	 * server process still running when tau exits gets SIGTERM, then SIGKILL.
	 */
	async shutdown(waitMs = SHUTDOWN_WAIT_MS): Promise<void> {
		const connections = [...this.connections.values()];
		const closed = Promise.all([
			...connections.map((connection) => connection.close().catch(() => {})),
			...[...this.tracked].map((promise) => promise.catch(() => {})),
			// A refresh the server already answered must still be saved: it may have rotated the refresh token.
			...[...this.oauthProviders].map((provider) => provider.settled().catch(() => {})),
		]);
		if (!(await settlesWithin(closed, waitMs))) for (const connection of connections) connection.release();
	}
}
