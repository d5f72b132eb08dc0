import { join } from "node:path";
import type { McpOAuthServerStore } from "@tau/mcp/oauth";
import { getAgentDir, VERSION } from "../../config/index.js";
import type { ExtensionAPI, ExtensionContext, ExtensionFactory, ToolInfo } from "../../core/extensions/index.js";
import { registerMcpCommand } from "./command/mcp-command.js";
import { mightConfigureMcp } from "./config/config-paths.js";
import type { McpConfig, McpConfigSources, McpServerEntry } from "./config/load-config.js";
import type { writeEntryChange } from "./config/update-entry.js";
import type { CreateMcpTransport } from "./connection/create-transport.js";
import type { McpServerConnection } from "./connection/server-connection.js";
import { configuredExposures } from "./exposure.js";
import { appendMcpLog } from "./log/mcp-log.js";
import type { McpSession } from "./mcp-session.js";
import { registerMcpToolRenderer } from "./tools/tool-renderer.js";

type McpRuntime = typeof import("./runtime.js");

let runtimeModule: Promise<McpRuntime> | undefined;
/** The MCP client and everything built on it, loaded on first need (README §6). */
function loadRuntime(): Promise<McpRuntime> {
	runtimeModule ??= import("./runtime.js");
	return runtimeModule;
}

export interface McpExtensionOptions {
	/** Agent dir holding `mcp.json` and `mcp.log` (default: `getAgentDir()`). */
	agentDir?: string;
	loadConfig?: (sources: McpConfigSources) => McpConfig;
	createTransport?: CreateMcpTransport;
	logPath?: string;
	/** How long the first prompt waits for `direct` servers (10000 ms). */
	startupWaitMs?: number;
	/** Retry waits; injectable for tests. */
	sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
	env?: NodeJS.ProcessEnv;
	/** OAuth state per server instead of `<agent-dir>/mcp-auth.json`. */
	credentials?: (entry: McpServerEntry) => McpOAuthServerStore;
	/** Writes `/mcp` enable/disable/exposure changes (default: the defining mcp.json). */
	updateConfig?: typeof writeEntryChange;
	/** Opens a sign-in URL in a browser (default: only shown). */
	openUrl?: (url: string) => void | Promise<void>;
	/** Token of a tau `/login` provider for entries with `auth.provider`. */
	providerToken?: (provider: string) => Promise<string | undefined>;
}

const SECTION = "mcp_servers";

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		if (signal.aborted) return resolve();
		const timer = setTimeout(done, ms);
		function done() {
			clearTimeout(timer);
			signal.removeEventListener("abort", done);
			resolve();
		}
		signal.addEventListener("abort", done, { once: true });
	});
}

/** Resolves when every given connection's latest attempt settled, or when `signal` aborts. */
async function waitForConnections(connections: McpServerConnection[], signal: AbortSignal | undefined): Promise<void> {
	for (;;) {
		const readies = connections.map((connection) => connection.ready);
		const all = Promise.all(readies);
		if (signal) {
			if (signal.aborted) return;
			await Promise.race([
				all,
				new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true })),
			]);
			if (signal.aborted) return;
		} else await all;
		// A reconnect may have started meanwhile; wait for the newest attempts too.
		if (connections.every((connection, i) => connection.ready === readies[i])) return;
	}
}

const DISCOVERY_TOOLS = new Set(["codemode", "tool_search"]);

/**
 * The registered `codemode`/`tool_search` tool. A host whose `getAllTools()` does not report
 * `reachesTools` still gets MCP activation and waits (for every server).
 */
function reachingTool(pi: ExtensionAPI, name: string): ToolInfo | undefined {
	if (!DISCOVERY_TOOLS.has(name)) return undefined;
	return pi.getAllTools().find((tool) => tool.name === name && tool.exposure !== "hidden");
}

/**
 * Fallback when the host does not report `reachesTools`: the input words naming a server's
 * namespace, else every server.
 */
function namedWords(input: Record<string, unknown>, connections: McpServerConnection[]): "all" | string[] {
	const words = JSON.stringify(input).split(/[^A-Za-z0-9_]+/);
	const named = words.filter((word) => connections.some((connection) => word.includes(connection.entry.namespace)));
	return named.length > 0 ? named : "all";
}

/** The built-in MCP extension (`builtin:mcp`). */
export function createMcpExtension(options: McpExtensionOptions = {}): ExtensionFactory {
	return (pi: ExtensionAPI) => {
		const agentDir = options.agentDir ?? getAgentDir();
		const logPath = options.logPath ?? join(agentDir, "mcp.log");
		const startupWaitMs = options.startupWaitMs ?? 10_000;
		let session: McpSession | undefined;
		let startupWaited = false;
		let warnedUnreachable = false;
		let sessionAbort = new AbortController();

		const sourcesOf = (ctx: ExtensionContext): McpConfigSources => ({
			cwd: ctx.cwd,
			agentDir,
			projectTrusted: ctx.isProjectTrusted(),
			registered: pi.getMcpServers(),
		});
		const load = (runtime: McpRuntime, ctx: ExtensionContext): McpConfig =>
			(options.loadConfig ?? runtime.loadMcpConfig)(sourcesOf(ctx));

		/** Activates `codemode`/`tool_search` when configured exposures need them (D.6). */
		const ensureDiscoveryActive = (ctx: ExtensionContext) => {
			if (!session) return;
			let needsCodemode = false;
			let needsToolSearch = false;
			for (const entry of session.enabledEntries()) {
				const exposures = configuredExposures(entry);
				if (exposures.has("codemode")) needsCodemode = true;
				if (exposures.has("deferred")) needsToolSearch = true;
			}
			const active = new Set(pi.getActiveTools());
			const add: string[] = [];
			if (
				needsCodemode &&
				session.config.autoEnableCodemode &&
				reachingTool(pi, "codemode") &&
				!active.has("codemode")
			) {
				add.push("codemode");
			}
			if (needsToolSearch && reachingTool(pi, "tool_search") && !active.has("tool_search")) add.push("tool_search");
			if (add.length > 0) pi.setActiveTools([...active, ...add]);
			const now = new Set(pi.getActiveTools());
			if (
				(needsCodemode || needsToolSearch) &&
				!now.has("codemode") &&
				!now.has("tool_search") &&
				!warnedUnreachable
			) {
				warnedUnreachable = true;
				const cause =
					needsCodemode && !session.config.autoEnableCodemode
						? ' ("autoEnableCodemode": false keeps codemode off)'
						: "";
				ctx.ui.notify(
					`MCP tools exposed through codemode or tool_search cannot be called: neither tool is active${cause}.`,
					"warning",
				);
			}
		};

		const reportStartup = async (ctx: ExtensionContext, current: McpSession) => {
			await waitForConnections([...current.connections.values()], undefined);
			if (session !== current) return;
			const problems = [...current.config.errors];
			for (const connection of current.connections.values()) {
				if (connection.state === "failed") problems.push(`${connection.name}: ${connection.error ?? "failed"}`);
				if (connection.state === "needs-auth") problems.push(`${connection.name}: needs sign-in`);
			}
			if (problems.length > 0) ctx.ui.notify(`MCP: ${problems.join("\n")}\nSee /mcp.`, "warning");
		};

		/** Stored tokens of servers at the moment they needed sign-in; a change means someone signed in. */
		const authSnapshots = new Map<string, string>();
		const peekTokens = (runtime: McpRuntime, connection: McpServerConnection): string =>
			runtime.peekMcpTokens(agentDir, connection.entry.namespace, (connection.entry.config as { url: string }).url);
		const storedTokens = async (connection: McpServerConnection): Promise<string> => {
			if (!options.credentials) return peekTokens(await loadRuntime(), connection);
			return JSON.stringify((await options.credentials(connection.entry).load())?.tokens ?? null);
		};

		/**
		 * Loads the config and the MCP runtime into a new session, or nothing when no file or
		 * registration could name a server.
		 */
		const openSession = async (ctx: ExtensionContext): Promise<McpSession | undefined> => {
			if (!options.loadConfig && !mightConfigureMcp(sourcesOf(ctx))) return undefined;
			const runtime = await loadRuntime();
			const current: McpSession = new runtime.McpSession(load(runtime, ctx), pi, {
				version: VERSION,
				transportContext: {
					cwd: ctx.cwd,
					agentDir,
					...(options.credentials ? { credentials: options.credentials } : {}),
					env: options.env ?? process.env,
					...(options.providerToken ? { providerToken: options.providerToken } : {}),
					onOAuthProvider: (provider) => current.watchOAuthProvider(provider),
				},
				createTransport: options.createTransport ?? runtime.createMcpTransport,
				sleep: options.sleep ?? abortableSleep,
				onLog: (server, params) => appendMcpLog(logPath, server, params),
				onStateChange: (connection) => {
					if (connection.state !== "needs-auth" || connection.entry.transport !== "http") return;
					// The default store is read synchronously, so a sign-in right after cannot be missed.
					if (!options.credentials) {
						authSnapshots.set(connection.name, peekTokens(runtime, connection));
						return;
					}
					current.track(storedTokens(connection).then((tokens) => authSnapshots.set(connection.name, tokens)));
				},
			});
			return current;
		};

		pi.on("session_start", async (_event, ctx) => {
			sessionAbort = new AbortController();
			startupWaited = false;
			warnedUnreachable = false;
			authSnapshots.clear();
			const current = await openSession(ctx);
			session = current;
			if (!current) return;
			ensureDiscoveryActive(ctx);
			const config = current.config;
			if (current.enabledEntries().length === 0) {
				if (config.errors.length > 0) ctx.ui.notify(`MCP: ${config.errors.join("\n")}`, "warning");
				return;
			}
			// Let the first render happen before spawning servers.
			await new Promise<void>((resolve) => setImmediate(resolve));
			if (session !== current) return;
			current.connectAll();
			current.track(reportStartup(ctx, current));
		});

		pi.on("before_agent_start", async (event, ctx) => {
			const current = session;
			if (!current) return undefined;
			if (!startupWaited) {
				startupWaited = true;
				const direct = [...current.connections.values()].filter(
					(connection) => connection.entry.enabled && configuredExposures(connection.entry).has("direct"),
				);
				if (direct.length > 0) {
					let timer: ReturnType<typeof setTimeout> | undefined;
					const timedOut = await Promise.race([
						waitForConnections(direct, ctx.signal).then(() => false),
						new Promise<boolean>((resolve) => {
							timer = setTimeout(() => resolve(true), startupWaitMs);
						}),
					]);
					clearTimeout(timer);
					if (timedOut) {
						ctx.ui.notify("MCP servers are still connecting; their tools appear once connected.", "info");
					}
				}
			}
			const codemodeActive = pi.getActiveTools().includes("codemode") && reachingTool(pi, "codemode") !== undefined;
			const section = (await loadRuntime()).renderServersSection(current.sectionInputs(codemodeActive));
			const sections = event.systemPromptOptions.sections;
			if (section === undefined) delete sections[SECTION];
			else sections[SECTION] = section;
			return undefined;
		});

		pi.on("tool_call", async (event, ctx) => {
			const current = session;
			if (!current || current.connections.size === 0) return undefined;
			const enabled = [...current.connections.values()].filter((connection) => connection.entry.enabled);
			let targets: McpServerConnection[] = [];
			const reaching = reachingTool(pi, event.toolName);
			if (reaching) {
				const reach = reaching.reachesTools ? reaching.reachesTools(event.input) : namedWords(event.input, enabled);
				targets =
					reach === "all"
						? enabled
						: enabled.filter((connection) => reach.some((word) => word.includes(connection.entry.namespace)));
			} else if (((await loadRuntime()).RESOURCE_TOOL_NAMES as readonly string[]).includes(event.toolName)) {
				targets = enabled;
			} else {
				const server = current.serverOfTool(event.toolName);
				const connection = server === undefined ? undefined : current.connectionFor(server);
				if (connection) targets = [connection];
			}
			if (targets.length > 0) await waitForConnections(targets, ctx.signal ?? sessionAbort.signal);
			return undefined;
		});

		/** Reloads files and registrations; connects added or changed servers, hides removed ones. */
		const applyConfig = async (ctx: ExtensionContext) => {
			const current = session;
			if (!current) {
				// Nothing was configured at session start; a registration may have named the first server.
				session = await openSession(ctx);
				if (!session) return;
				session.connectAll();
				ensureDiscoveryActive(ctx);
				return;
			}
			const next = load(await loadRuntime(), ctx);
			const before = new Map(current.config.servers.map((entry) => [entry.name, entry]));
			current.config = next;
			for (const entry of next.servers) {
				const old = before.get(entry.name);
				const changed =
					!old || JSON.stringify(old.config) !== JSON.stringify(entry.config) || old.enabled !== entry.enabled;
				if (!changed) continue;
				if (old) await current.dropServer(entry.name);
				if (entry.enabled) current.connectServer(entry);
			}
			for (const name of before.keys()) {
				if (!next.servers.some((entry) => entry.name === name)) await current.dropServer(name);
			}
			ensureDiscoveryActive(ctx);
		};
		pi.on("mcp_servers_change", async (_event, ctx) => applyConfig(ctx));

		pi.on("turn_start", async (_event, ctx) => {
			const current = session;
			if (!current) return;
			for (const connection of current.connections.values()) {
				const seen = authSnapshots.get(connection.name);
				if (connection.state !== "needs-auth" || seen === undefined) continue;
				if ((await storedTokens(connection)) === seen) continue;
				authSnapshots.delete(connection.name);
				await current.dropServer(connection.name);
				current.connectServer(connection.entry);
				ensureDiscoveryActive(ctx);
			}
		});

		pi.on("session_shutdown", async () => {
			sessionAbort.abort();
			const current = session;
			session = undefined;
			await current?.shutdown();
		});

		registerMcpToolRenderer(pi);
		registerMcpCommand(pi, {
			session: () => session,
			change: async (name, change, inProject, ctx) => {
				const entry = session?.config.servers.find((candidate) => candidate.name === name);
				if (!entry) return `Unknown MCP server "${name}"`;
				if (inProject && entry.scope !== "user")
					return `"in this project" applies to servers from your user mcp.json`;
				if (inProject && !ctx.isProjectTrusted())
					return "This project is not trusted, so its .tau/mcp.json would be ignored";
				const file = (options.updateConfig ?? (await loadRuntime()).writeEntryChange)(entry, change, {
					cwd: ctx.cwd,
					inProject,
				});
				await applyConfig(ctx);
				return `${name}: ${change.field} = ${String(change.value)} (written to ${file})`;
			},
			signIn: async (name, ctx) => {
				const entry = session?.config.servers.find((candidate) => candidate.name === name);
				if (!entry) return `Unknown MCP server "${name}"`;
				if (entry.transport !== "http") return `MCP server "${name}" is not an HTTP server; it has no sign-in.`;
				const result = await (await loadRuntime()).signInMcpServer(entry, {
					agentDir,
					...(options.credentials ? { store: options.credentials(entry) } : {}),
					openUrl: async (url) => {
						ctx.ui.notify(`Open this URL to sign in to ${name}:\n${url}`, "info");
						await options.openUrl?.(url);
					},
					...(ctx.signal ? { signal: ctx.signal } : {}),
				});
				return `${result === "authorized" ? "Refreshed the sign-in of" : "Signed in to"} ${name}.`;
			},
			signOut: async (name) => {
				const entry = session?.config.servers.find((candidate) => candidate.name === name);
				if (entry?.transport !== "http") return `MCP server "${name}" has no sign-in.`;
				const removed = await (await loadRuntime()).deleteMcpCredentials(
					agentDir,
					entry.namespace,
					(entry.config as { url: string }).url,
				);
				return removed ? `Signed out of ${name}.` : `No stored sign-in for ${name}.`;
			},
			reconnect: async (name, ctx) => {
				const current = session;
				const entry = current?.config.servers.find((candidate) => candidate.name === name);
				if (!current || !entry) return `Unknown MCP server "${name}"`;
				await current.dropServer(name);
				if (!entry.enabled) return `MCP server "${name}" is disabled`;
				const connection = current.connectServer(entry);
				await connection.ready;
				ensureDiscoveryActive(ctx);
				return `${name}: ${connection.state}${connection.error ? ` (${connection.error})` : ""}`;
			},
		});
	};
}
