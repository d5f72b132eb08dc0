import { join } from "node:path";
import type { McpOAuthServerStore } from "@tau/mcp/oauth";
import { getAgentDir, VERSION } from "../../config/index.js";
import type { ExtensionAPI, ExtensionContext, ExtensionFactory } from "../../core/extensions/index.js";
import type { McpCommandHost } from "./command/command-host.js";
import { registerMcpCommand } from "./command/mcp-command.js";
import { startupProblemsText } from "./command/server-status.js";
import { mightConfigureMcp } from "./config/config-paths.js";
import type { McpConfig, McpConfigSources, McpServerEntry } from "./config/load-config.js";
import type { writeEntryChange } from "./config/update-entry.js";
import type { CreateMcpTransport } from "./connection/create-transport.js";
import type { McpServerConnection } from "./connection/server-connection.js";
import { waitForConnections, waitForConnectionsAtMost } from "./connection/wait.js";
import { activateDiscoveryTools, reachedEntries, reachingTool } from "./discovery-activation.js";
import { configuredExposures } from "./exposure.js";
import { appendMcpLog } from "./log/mcp-log.js";
import type { McpSession } from "./mcp-session.js";
import { RESOURCE_TOOL_NAMES } from "./tools/resource-tool-names.js";
import { registerMcpToolRenderer } from "./tools/tool-renderer.js";

type McpRuntime = typeof import("./runtime.js");
type McpConfigLayer = typeof import("./config-layer.js");

let configLayer: Promise<McpConfigLayer> | undefined;
/** mcp.json reading and the prompt section, loaded only when some server could be configured. */
function loadConfigLayer(): Promise<McpConfigLayer> {
	configLayer ??= import("./config-layer.js");
	return configLayer;
}

let runtimeModule: Promise<McpRuntime> | undefined;
/**
 * The MCP client and everything built on it, loaded on first need (docs/design/resources.md#mcp-on-demand): in the background
 * once a session starts, or when a one-shot run first needs a server. Reading mcp.json does not need it.
 */
function loadRuntime(): Promise<McpRuntime> {
	runtimeModule ??= import("./runtime.js");
	return runtimeModule;
}

/**
 * Options of the built-in MCP extension: the agent directory holding `mcp.json`, how configuration is loaded and
 * servers are connected, the log file, and when servers start.
 */
export interface McpExtensionOptions {
	/** Agent dir holding `mcp.json` and `mcp.log` (default: `getAgentDir()`). */
	agentDir?: string;
	loadConfig?: (sources: McpConfigSources) => McpConfig;
	createTransport?: CreateMcpTransport;
	logPath?: string;
	/** How long the first prompt waits for `direct` servers (10000 ms). */
	startupWaitMs?: number;
	/**
	 * `background` (default): every enabled server starts when the session starts. `on-demand`: a
	 * server starts when a prompt needs it (its tools are direct, or a call reaches it), so a one-shot
	 * run neither competes with servers it never uses nor waits for them to stop (docs/mcp.md).
	 */
	connect?: "background" | "on-demand";
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

/** The built-in MCP extension (`builtin:mcp`). */
export function createMcpExtension(options: McpExtensionOptions = {}): ExtensionFactory {
	return (pi: ExtensionAPI) => {
		const agentDir = options.agentDir ?? getAgentDir();
		const logPath = options.logPath ?? join(agentDir, "mcp.log");
		const startupWaitMs = options.startupWaitMs ?? 10_000;
		const onDemand = options.connect === "on-demand";
		/** This session's servers, read at session_start without loading the client. */
		let config: McpConfig | undefined;
		/** The connections, once the client loaded (`openSession`). */
		let session: McpSession | undefined;
		let opening: Promise<McpSession | undefined> | undefined;
		/** Aborted when the session ends: whatever it started must not outlive it. */
		let lifetime = new AbortController();
		let startupWaited = false;
		let warnedUnreachable = false;
		const changeListeners = new Set<() => void>();
		const emitChange = () => {
			for (const listener of [...changeListeners]) listener();
		};

		const sourcesOf = (ctx: ExtensionContext): McpConfigSources => ({
			cwd: ctx.cwd,
			agentDir,
			projectTrusted: ctx.isProjectTrusted(),
			registered: pi.getMcpServers(),
		});
		const readConfig = async (ctx: ExtensionContext): Promise<McpConfig | undefined> => {
			if (options.loadConfig) return options.loadConfig(sourcesOf(ctx));
			if (!mightConfigureMcp(sourcesOf(ctx))) return undefined;
			return (await loadConfigLayer()).loadMcpConfig(sourcesOf(ctx));
		};
		const enabledEntries = (): McpServerEntry[] => config?.servers.filter((entry) => entry.enabled) ?? [];
		const directEntries = () => enabledEntries().filter((entry) => configuredExposures(entry).has("direct"));
		const ensureDiscoveryActive = (ctx: ExtensionContext) => {
			if (config) warnedUnreachable = activateDiscoveryTools(pi, ctx, config, warnedUnreachable);
		};

		const reportStartup = async (ctx: ExtensionContext, current: McpSession) => {
			await waitForConnections([...current.connections.values()], undefined);
			if (session !== current) return;
			const problems = startupProblemsText(current);
			if (problems) ctx.ui.notify(problems, "warning");
		};

		/** Stored tokens of servers at the moment they needed sign-in; a change means someone signed in. */
		const authSnapshots = new Map<string, string>();
		const peekTokens = (runtime: McpRuntime, connection: McpServerConnection): string =>
			runtime.peekMcpTokens(agentDir, connection.entry.namespace, (connection.entry.config as { url: string }).url);
		const storedTokens = async (connection: McpServerConnection): Promise<string> => {
			if (!options.credentials) return peekTokens(await loadRuntime(), connection);
			return JSON.stringify((await options.credentials(connection.entry).load())?.tokens ?? null);
		};

		/** The session's connections: loads the client once, or nothing when the session has ended. */
		const openSession = (ctx: ExtensionContext): Promise<McpSession | undefined> => {
			if (session) return Promise.resolve(session);
			const life = lifetime;
			opening ??= loadRuntime().then((runtime) => {
				if (life.signal.aborted || !config) return undefined;
				const current: McpSession = new runtime.McpSession(config, pi, {
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
						emitChange();
						if (connection.state !== "needs-auth" || connection.entry.transport !== "http") return;
						// The default store is read synchronously, so a sign-in right after cannot be missed.
						if (!options.credentials) {
							authSnapshots.set(connection.name, peekTokens(runtime, connection));
							return;
						}
						current.track(storedTokens(connection).then((tokens) => authSnapshots.set(connection.name, tokens)));
					},
				});
				session = current;
				return current;
			});
			return opening;
		};

		/** Starts every enabled server in the background and reports failures once they settled. */
		const startInBackground = (ctx: ExtensionContext) => {
			const life = lifetime;
			startAll(ctx).catch((error: unknown) => {
				// The session may have ended meanwhile, which makes ctx stale.
				if (!life.signal.aborted) ctx.ui.notify(`MCP failed to load: ${(error as Error).message}`, "error");
			});
		};
		const startAll = async (ctx: ExtensionContext) => {
			const life = lifetime;
			// Let the first render happen before loading the client and spawning servers.
			await new Promise<void>((resolve) => setImmediate(resolve));
			const current = life.signal.aborted ? undefined : await openSession(ctx);
			if (!current || life.signal.aborted) return;
			if (onDemand) {
				// The first prompt needs servers with direct tools: start them while the rest starts up.
				current.ensureConnecting(directEntries());
				return;
			}
			current.connectAll();
			emitChange();
			current.track(reportStartup(ctx, current));
		};

		pi.on("session_start", async (_event, ctx) => {
			lifetime = new AbortController();
			config = undefined;
			session = undefined;
			opening = undefined;
			startupWaited = false;
			warnedUnreachable = false;
			authSnapshots.clear();
			const life = lifetime;
			const read = await readConfig(ctx);
			if (life.signal.aborted || !read) return;
			config = read;
			ensureDiscoveryActive(ctx);
			if (enabledEntries().length === 0) {
				if (config.errors.length > 0) ctx.ui.notify(`MCP: ${config.errors.join("\n")}`, "warning");
				return;
			}
			if (!onDemand || directEntries().length > 0) startInBackground(ctx);
		});

		pi.on("before_agent_start", async (event, ctx) => {
			if (!config) return undefined;
			if (!startupWaited) {
				startupWaited = true;
				// `direct` tools must be in the first request: wait for their servers, but not forever.
				const direct = directEntries();
				const current = direct.length > 0 ? await openSession(ctx) : undefined;
				if (
					current &&
					(await waitForConnectionsAtMost(current.ensureConnecting(direct), ctx.signal, startupWaitMs))
				) {
					ctx.ui.notify("MCP servers are still connecting; their tools appear once connected.", "info");
				}
			}
			const codemodeActive = pi.getActiveTools().includes("codemode") && reachingTool(pi, "codemode") !== undefined;
			const instructionsOf = (name: string) => session?.connections.get(name)?.instructions;
			const { renderServersSection, serverSectionInputs } = await loadConfigLayer();
			const section = renderServersSection(serverSectionInputs(config.servers, instructionsOf, codemodeActive));
			const sections = event.systemPromptOptions.sections;
			if (section === undefined) delete sections[SECTION];
			else sections[SECTION] = section;
			return undefined;
		});

		// A call waits for the servers it may use (starting them if needed), and only for those.
		pi.on("tool_call", async (event, ctx) => {
			const enabled = enabledEntries();
			if (enabled.length === 0) return undefined;
			const reaching = reachingTool(pi, event.toolName);
			let targets: McpServerEntry[];
			if (reaching) targets = reachedEntries(reaching, event.input, enabled);
			else if ((RESOURCE_TOOL_NAMES as readonly string[]).includes(event.toolName)) targets = enabled;
			else {
				const server = session?.serverOfTool(event.toolName);
				targets = enabled.filter((entry) => entry.name === server);
			}
			if (targets.length === 0) return undefined;
			const current = await openSession(ctx);
			if (current) await waitForConnections(current.ensureConnecting(targets), ctx.signal ?? lifetime.signal);
			return undefined;
		});

		/** Reloads files and registrations; connects added or changed servers, hides removed ones. */
		const applyConfig = async (ctx: ExtensionContext) => {
			const next = await readConfig(ctx);
			const current = session;
			if (!config || !current) {
				const wasConfigured = config !== undefined;
				config = next;
				if (!config) return;
				ensureDiscoveryActive(ctx);
				emitChange();
				// Nothing was configured at session start; a registration may have named the first server.
				if (!wasConfigured && (!onDemand || directEntries().length > 0)) startInBackground(ctx);
				return;
			}
			const updated = next ?? { ...config, servers: [] };
			const before = new Map(current.config.servers.map((entry) => [entry.name, entry]));
			config = updated;
			current.config = updated;
			for (const entry of updated.servers) {
				const old = before.get(entry.name);
				const changed =
					!old || JSON.stringify(old.config) !== JSON.stringify(entry.config) || old.enabled !== entry.enabled;
				if (!changed) continue;
				if (old) await current.dropServer(entry.name);
				if (entry.enabled && current.started) current.connectServer(entry);
			}
			for (const name of before.keys()) {
				if (!updated.servers.some((entry) => entry.name === name)) await current.dropServer(name);
			}
			ensureDiscoveryActive(ctx);
			emitChange();
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
			lifetime.abort();
			// A client still loading opens no session once the lifetime ended.
			const current = session ?? (await opening?.catch(() => undefined));
			session = undefined;
			opening = undefined;
			config = undefined;
			await current?.shutdown();
		});

		const entryNamed = (name: string) => config?.servers.find((candidate) => candidate.name === name);
		const commandHost: McpCommandHost = {
			view: () =>
				config
					? { config, connections: session?.connections ?? new Map(), started: session?.started ?? false }
					: undefined,
			onChange: (listener) => {
				changeListeners.add(listener);
				return () => changeListeners.delete(listener);
			},
			change: async (name, change, inProject, ctx) => {
				const entry = entryNamed(name);
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
			signIn: async (name, ctx, signInOptions = {}) => {
				const entry = entryNamed(name);
				if (!entry) return `Unknown MCP server "${name}"`;
				if (entry.transport !== "http") return `MCP server "${name}" is not an HTTP server; it has no sign-in.`;
				// The sign-in (and the HTTP server it listens with) loads only when someone signs in.
				const { signInMcpServer } = await import("./auth/sign-in.js");
				const result = await signInMcpServer(entry, {
					agentDir,
					...(options.credentials ? { store: options.credentials(entry) } : {}),
					openUrl: async (url) => {
						if (signInOptions.showUrl) signInOptions.showUrl(url);
						else ctx.ui.notify(`Open this URL to sign in to ${name}:\n${url}`, "info");
						await options.openUrl?.(url);
					},
					...(signInOptions.signal || ctx.signal ? { signal: signInOptions.signal ?? ctx.signal } : {}),
				});
				return `${result === "authorized" ? "Refreshed the sign-in of" : "Signed in to"} ${name}.`;
			},
			signOut: async (name) => {
				const entry = entryNamed(name);
				if (entry?.transport !== "http") return `MCP server "${name}" has no sign-in.`;
				const removed = await (await loadRuntime()).deleteMcpCredentials(
					agentDir,
					entry.namespace,
					(entry.config as { url: string }).url,
				);
				return removed ? `Signed out of ${name}.` : `No stored sign-in for ${name}.`;
			},
			reconnect: async (name, ctx) => {
				const entry = entryNamed(name);
				const current = entry ? await openSession(ctx) : undefined;
				if (!current || !entry) return `Unknown MCP server "${name}"`;
				await current.dropServer(name);
				if (!entry.enabled) return `MCP server "${name}" is disabled`;
				const connection = current.connectServer(entry);
				emitChange();
				await connection.ready;
				ensureDiscoveryActive(ctx);
				return `${name}: ${connection.state}${connection.error ? ` (${connection.error.split("\n")[0]})` : ""}`;
			},
		};
		registerMcpToolRenderer(pi);
		registerMcpCommand(pi, commandHost);
	};
}
