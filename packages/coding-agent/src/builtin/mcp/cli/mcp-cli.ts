import { existsSync } from "node:fs";
import { type McpHttpServerConfig, validateMcpServerConfig } from "@tau/mcp";
import { VERSION } from "../../../config/index.js";
import { editMcpServers } from "../../../config/mcp-json/edit-mcp-servers.js";
import { countNoun } from "../../../core/text/count-noun.js";
import { deleteMcpCredentials } from "../auth/credential-store.js";
import { signInMcpServer } from "../auth/sign-in.js";
import { projectConfigPath, userConfigPath } from "../config/config-paths.js";
import { hasOwnAuthorization } from "../config/entry-auth.js";
import { loadMcpConfig, type McpServerEntry, readMcpFile } from "../config/load-config.js";
import { type CreateMcpTransport, createMcpTransport } from "../connection/create-transport.js";
import { McpServerConnection } from "../connection/server-connection.js";
import { getMcpToolExposure } from "../exposure.js";
import { parseAddArgs } from "./parse-add.js";

export interface McpCliContext {
	cwd: string;
	agentDir: string;
	projectTrusted: boolean;
	env: NodeJS.ProcessEnv;
	stdout(text: string): void;
	stderr(text: string): void;
	createTransport?: CreateMcpTransport;
	/** Opens the sign-in URL in a browser; the URL is always printed. */
	openUrl?: (url: string) => void | Promise<void>;
	/** On a TTY: reads a redirect URL the user pastes instead of the browser reaching tau. */
	readPastedUrl?: () => Promise<string>;
}

const USAGE = `Usage:
  tau mcp add <server> [-l] [--env K=V]… [--cwd DIR] [--exposure E] [--description D] -- <command> [args…]
  tau mcp add <server> [-l] --url <url> [--header K=V]… [--bearer-token-env-var NAME] [--oauth-…] [--exposure E]
  tau mcp remove <server> [-l]
  tau mcp list [--json]
  tau mcp login <server> [-l] [--timeout <s>]
  tau mcp logout <server> [-l]

Edits and checks ~/.tau/agent/mcp.json (and .tau/mcp.json of a trusted project) without a session.

  add       add or replace a server; never connects
  remove    remove a server (stored sign-ins are kept)
  list      connect every enabled server and show its state, tools and errors; exit 1 on any failure
  login     sign in to an OAuth server through the browser
  logout    delete a server's stored sign-in

  -l, --local                    the project's .tau/mcp.json instead of the user file
  --bearer-token-env-var NAME    send "Authorization: Bearer \${NAME}"
  --oauth-client-id, --oauth-client-secret, --oauth-callback-port, --oauth-client-name,
  --oauth-client-registration    OAuth client settings (see docs/mcp.md)
  --exposure E                   codemode (default), deferred, direct or hidden
  --json                         list as JSON
  --timeout S                    seconds the sign-in may take (default 300)`;

function editDistance(a: string, b: string): number {
	const row = Array.from({ length: b.length + 1 }, (_, i) => i);
	for (let i = 1; i <= a.length; i++) {
		let previous = row[0]!;
		row[0] = i;
		for (let j = 1; j <= b.length; j++) {
			const current = row[j]!;
			row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
			previous = current;
		}
	}
	return row[b.length]!;
}

function unknownServer(name: string, names: string[]): string {
	const close = names.find((candidate) => editDistance(candidate, name) <= 2);
	return `Unknown MCP server "${name}".${close ? ` Did you mean "${close}"?` : ""}`;
}

/** Connects every enabled server once, all at the same time, for `list` and `login`. */
async function connectAll(ctx: McpCliContext, entries: McpServerEntry[]): Promise<Map<string, McpServerConnection>> {
	const connections = new Map<string, McpServerConnection>();
	const attempts: Promise<unknown>[] = [];
	for (const entry of entries.filter((e) => e.enabled)) {
		const connection = new McpServerConnection(entry, {
			version: VERSION,
			transportContext: { cwd: ctx.cwd, env: ctx.env, agentDir: ctx.agentDir },
			createTransport: ctx.createTransport ?? createMcpTransport,
			sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
			onLog: () => {},
			onToolsChanged: () => {},
			onStateChange: () => {},
		});
		connections.set(entry.name, connection);
		attempts.push(connection.connect().catch(() => undefined));
	}
	await Promise.all(attempts);
	return connections;
}

async function closeAll(connections: Map<string, McpServerConnection>): Promise<void> {
	await Promise.all([...connections.values()].map((connection) => connection.close().catch(() => {})));
}

async function add(ctx: McpCliContext, args: string[]): Promise<number> {
	const request = parseAddArgs(args);
	const result = validateMcpServerConfig(request.name, request.entry);
	if (result.kind === "invalid") throw new Error(result.error);
	const path = request.local ? projectConfigPath(ctx.cwd) : userConfigPath(ctx.agentDir);
	let replaced = false;
	editMcpServers(path, (servers) => {
		replaced = request.name in servers;
		servers[request.name] = request.entry;
		return true;
	});
	ctx.stdout(`${replaced ? "Replaced" : "Added"} MCP server "${request.name}" in ${path}\n`);
	if (request.local && !ctx.projectTrusted) {
		ctx.stderr("Warning: this project is not trusted, so its .tau/mcp.json is ignored until you trust it.\n");
	}
	ctx.stdout(
		`Check it with: tau mcp list${result.kind === "http" ? `\nSign in (if it uses OAuth) with: tau mcp login ${request.name}` : ""}\n`,
	);
	return 0;
}

function remove(ctx: McpCliContext, args: string[]): number {
	const local = args.includes("-l") || args.includes("--local");
	const name = args.find((arg) => !arg.startsWith("-"));
	if (!name) throw new Error("Usage: tau mcp remove <server> [-l]");
	const path = local ? projectConfigPath(ctx.cwd) : userConfigPath(ctx.agentDir);
	const other = local ? userConfigPath(ctx.agentDir) : projectConfigPath(ctx.cwd);
	const removed =
		existsSync(path) && editMcpServers(path, (servers) => (name in servers ? delete servers[name] : false));
	if (!removed) {
		const errors: string[] = [];
		const inOther = readMcpFile(other, errors)?.servers[name] !== undefined;
		const names = Object.keys(readMcpFile(path, errors)?.servers ?? {});
		ctx.stderr(
			`${unknownServer(name, names)}${inOther ? ` It is defined in ${other}${local ? "" : " (use -l)"}.` : ""}\n`,
		);
		return 1;
	}
	ctx.stdout(
		`Removed MCP server "${name}" from ${path} (stored credentials are kept; tau mcp logout removes them).\n`,
	);
	return 0;
}

/** One `tau mcp list --json` server: pi 1.6's fields, in pi's order and with pi's values. */
interface ListedServer {
	name: string;
	/** `global` (the user file), `project` or `extension`. */
	scope: string;
	source: string;
	override?: string;
	enabled: boolean;
	exposure: string;
	/** The command line of a stdio server, the URL of an HTTP server. */
	transport: string;
	authProvider?: string;
	state: string;
	tools: string[];
	toolExposure?: Record<string, string>;
	resources?: true;
	error?: string;
}

function describeTransport(entry: McpServerEntry): string {
	const config = entry.config as { url?: string; command?: string; args?: string[] };
	return config.url ?? [config.command, ...(config.args ?? [])].join(" ");
}

function listedServer(entry: McpServerEntry, connection: McpServerConnection | undefined): ListedServer {
	const exposure = entry.config.exposure ?? "codemode";
	const provider = (entry.config as McpHttpServerConfig).auth?.provider;
	const listed: ListedServer = {
		name: entry.name,
		scope: entry.scope === "user" ? "global" : entry.scope,
		source: entry.source,
		...(entry.overrideSource ? { override: entry.overrideSource } : {}),
		enabled: entry.enabled,
		exposure,
		transport: describeTransport(entry),
		...(provider ? { authProvider: provider } : {}),
		state: entry.enabled ? (connection?.state ?? "failed") : "disabled",
		tools: connection?.tools.map((tool) => tool.name) ?? [],
	};
	const overrides = listed.tools.flatMap((tool) => {
		const effective = getMcpToolExposure(entry, tool);
		return effective === exposure ? [] : [[tool, effective]];
	});
	if (overrides.length > 0) listed.toolExposure = Object.fromEntries(overrides);
	if (connection?.hasResources) listed.resources = true;
	if (connection && connection.state !== "connected" && connection.error) listed.error = connection.error;
	return listed;
}

/** Text of one listed server: its state line, transport, sign-in hint, tools and full failure reason. */
function listedServerText(server: ListedServer): string[] {
	const state =
		server.state === "connected"
			? `connected, ${countNoun(server.tools.length, "tool")}`
			: server.state === "needs-auth"
				? "needs sign-in"
				: server.state;
	const lines = [`${server.name}: ${state} (${server.exposure}, ${server.scope})`, `  ${server.transport}`];
	if (server.override) lines.push(`  project override: ${server.override}`);
	if (server.state === "needs-auth") {
		lines.push(
			server.authProvider
				? `  sign in with: tau auth login ${server.authProvider}`
				: `  sign in with: tau mcp login ${server.name}`,
		);
	}
	if (server.tools.length > 0) {
		const marked = server.tools.map((tool) =>
			server.toolExposure?.[tool] ? `${tool} [${server.toolExposure[tool]}]` : tool,
		);
		lines.push(`  tools: ${marked.join(", ")}`);
	}
	if (server.resources) lines.push("  offers resources");
	if (server.error) for (const line of server.error.split("\n")) lines.push(`  ${line}`);
	return lines;
}

async function list(ctx: McpCliContext, args: string[]): Promise<number> {
	const json = args.includes("--json");
	const config = loadMcpConfig({ cwd: ctx.cwd, agentDir: ctx.agentDir, projectTrusted: ctx.projectTrusted });
	const connections = await connectAll(ctx, config.servers);
	try {
		const servers = config.servers.map((entry) => listedServer(entry, connections.get(entry.name)));
		const note = config.untrustedProjectFile
			? `${config.untrustedProjectFile} is ignored because the project is not trusted. Start tau in the project to trust it.`
			: undefined;
		if (json) {
			ctx.stdout(`${JSON.stringify({ servers, errors: config.errors, ...(note ? { note } : {}) }, null, 2)}\n`);
		} else {
			if (servers.length === 0 && config.errors.length === 0) {
				ctx.stdout(`No MCP servers configured. Add them to ${userConfigPath(ctx.agentDir)} or .tau/mcp.json.\n`);
			}
			for (const server of servers) ctx.stdout(`${listedServerText(server).join("\n")}\n`);
			for (const error of config.errors) ctx.stdout(`config error: ${error}\n`);
			if (note) ctx.stdout(`note: ${note}\n`);
		}
		const unconnected = servers.some((server) => server.enabled && server.state !== "connected");
		return config.errors.length > 0 || unconnected ? 1 : 0;
	} finally {
		await closeAll(connections);
	}
}

function findEntry(ctx: McpCliContext, name: string): McpServerEntry | string {
	const config = loadMcpConfig({ cwd: ctx.cwd, agentDir: ctx.agentDir, projectTrusted: ctx.projectTrusted });
	const entry = config.servers.find((candidate) => candidate.name === name);
	return (
		entry ??
		unknownServer(
			name,
			config.servers.map((candidate) => candidate.name),
		)
	);
}

async function login(ctx: McpCliContext, args: string[]): Promise<number> {
	const name = args.find((arg, i) => !arg.startsWith("-") && args[i - 1] !== "--timeout");
	if (!name) throw new Error("Usage: tau mcp login <server> [-l] [--timeout <s>]");
	const entry = findEntry(ctx, name);
	if (typeof entry === "string") {
		ctx.stderr(`${entry}\n`);
		return 1;
	}
	const provider = (entry.config as McpHttpServerConfig).auth?.provider;
	if (provider) {
		ctx.stderr(`MCP server "${name}" uses the tau provider "${provider}": run tau auth login ${provider}\n`);
		return 1;
	}
	const connections = await connectAll(ctx, [{ ...entry, enabled: true }]);
	try {
		const connection = connections.get(name)!;
		if (connection.state === "connected") {
			ctx.stdout(`MCP server "${name}" is connected; no sign-in needed.\n`);
			return 0;
		}
		if (entry.transport !== "http" || hasOwnAuthorization(entry)) {
			ctx.stderr(`MCP server "${name}" does not use OAuth: ${connection.error ?? "sign-in is not possible"}\n`);
			return 1;
		}
		if (connection.state !== "needs-auth") {
			ctx.stderr(`MCP server "${name}" could not connect: ${connection.error ?? connection.state}\n`);
			return 1;
		}
		await closeAll(connections);
		const timeoutIndex = args.indexOf("--timeout");
		const timeoutSeconds = timeoutIndex === -1 ? 300 : Number(args[timeoutIndex + 1]);
		const result = await signInMcpServer(entry, {
			agentDir: ctx.agentDir,
			timeoutMs: timeoutSeconds * 1000,
			...(ctx.readPastedUrl ? { readPastedUrl: ctx.readPastedUrl } : {}),
			openUrl: async (url) => {
				ctx.stdout(`Open this URL in a browser to sign in to ${name}:\n${url}\n`);
				if (ctx.readPastedUrl)
					ctx.stdout("If the browser cannot reach this machine, paste the address it ends on here.\n");
				await ctx.openUrl?.(url);
			},
		});
		ctx.stdout(`${result === "authorized" ? "Refreshed the sign-in of" : "Signed in to"} MCP server "${name}".\n`);
		return 0;
	} finally {
		await closeAll(connections);
	}
}

async function logout(ctx: McpCliContext, args: string[]): Promise<number> {
	const name = args.find((arg) => !arg.startsWith("-"));
	if (!name) throw new Error("Usage: tau mcp logout <server> [-l]");
	const entry = findEntry(ctx, name);
	if (typeof entry === "string") {
		ctx.stderr(`${entry}\n`);
		return 1;
	}
	if (entry.transport !== "http") {
		ctx.stderr(`MCP server "${name}" is not an HTTP server; it has no sign-in.\n`);
		return 1;
	}
	const removed = await deleteMcpCredentials(ctx.agentDir, entry.namespace, (entry.config as McpHttpServerConfig).url);
	ctx.stdout(
		removed
			? `Removed stored credentials for MCP server "${name}".\n`
			: `No stored credentials for MCP server "${name}".\n`,
	);
	return 0;
}

/** `tau mcp <subcommand> …`: runs without a session or extensions; returns the exit code. */
export async function runMcpCli(args: readonly string[], ctx: McpCliContext): Promise<number> {
	const [subcommand, ...rest] = args;
	// Words after `--` belong to the server's command line.
	const own = args.includes("--") ? args.slice(0, args.indexOf("--")) : args;
	if (own.includes("--help") || own.includes("-h")) {
		ctx.stdout(`${USAGE}\n`);
		return 0;
	}
	try {
		switch (subcommand) {
			case "add":
				return await add(ctx, rest);
			case "remove":
				return remove(ctx, rest);
			case "list":
				return await list(ctx, rest);
			case "login":
				return await login(ctx, rest);
			case "logout":
				return await logout(ctx, rest);
			case undefined:
			case "help":
				ctx.stdout(`${USAGE}\n`);
				return 0;
			default:
				ctx.stderr(`Unknown subcommand "${subcommand}".\n${USAGE}\n`);
				return 1;
		}
	} catch (error) {
		ctx.stderr(`Error: ${(error as Error).message}\n`);
		return 1;
	}
}
