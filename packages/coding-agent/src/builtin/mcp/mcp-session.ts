import type { McpExposure } from "@tau/mcp";
import type { AnyToolDefinition, ExtensionAPI, ToolExposure } from "../../core/extensions/index.js";
import type { McpConfig, McpServerEntry } from "./config/load-config.js";
import { type McpConnectionDeps, McpServerConnection } from "./connection/server-connection.js";
import { configuredExposures, toToolExposure } from "./exposure.js";
import type { ServerSectionInput } from "./prompt/servers-section.js";
import { createResourceTools, RESOURCE_TOOL_NAMES } from "./tools/resource-tools.js";
import { ServerTools } from "./tools/server-tools.js";

const EXPOSURE_RANK: Record<string, number> = { direct: 3, codemode: 2, deferred: 1 };

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

	/** Starts background connects of every enabled server without a connection. */
	connectAll(): void {
		for (const entry of this.enabledEntries()) this.connectServer(entry);
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

	/** Inputs of the `mcp_servers` section: enabled servers with a `codemode` or `deferred` exposure. */
	sectionInputs(reachCodemode: boolean): ServerSectionInput[] {
		const inputs: ServerSectionInput[] = [];
		for (const entry of this.enabledEntries()) {
			const exposures = configuredExposures(entry);
			if (!exposures.has("codemode") && !exposures.has("deferred")) continue;
			const connection = this.connections.get(entry.name);
			const input: ServerSectionInput = {
				name: entry.name,
				namespace: entry.namespace,
				reach: reachCodemode && exposures.has("codemode") ? "codemode" : "tool_search",
			};
			if (entry.config.description) input.description = entry.config.description;
			if (connection?.instructions) input.instructions = connection.instructions;
			inputs.push(input);
		}
		return inputs;
	}

	track<T>(promise: Promise<T>): void {
		this.tracked.add(promise);
		void promise.finally(() => this.tracked.delete(promise));
	}

	watchOAuthProvider(provider: { settled(): Promise<void> }): void {
		this.oauthProviders.add(provider);
	}

	async shutdown(): Promise<void> {
		const closing = [...this.connections.values()].map((connection) => connection.close().catch(() => {}));
		await Promise.all(closing);
		await Promise.all([...this.tracked].map((promise) => promise.catch(() => {})));
		await Promise.all([...this.oauthProviders].map((provider) => provider.settled().catch(() => {})));
	}
}
