import { isAbsolute, resolve } from "node:path";
import {
	type McpAuthProvider,
	type McpHttpServerConfig,
	type McpStdioServerConfig,
	type McpTransport,
	StdioTransport,
	type StdioTransportOptions,
	StreamableHttpTransport,
	type StreamableHttpTransportOptions,
} from "@tau/mcp";
import { createMcpAuthProvider, type McpOAuthServerStore } from "@tau/mcp/oauth";
import { expandTilde } from "../../../config/index.js";
import { createMcpCredentialStore } from "../auth/credential-store.js";
import type { RefreshLockTiming } from "../auth/refresh-lock.js";
import { interpolateRecord } from "../config/interpolate.js";
import type { McpServerEntry } from "../config/load-config.js";

export interface TransportContext {
	cwd: string;
	env: NodeJS.ProcessEnv;
	/** Where OAuth credentials live; without it HTTP servers get no OAuth provider. */
	agentDir?: string;
	lockTiming?: RefreshLockTiming;
	/** Replaces the `mcp-auth.json` store of a server (SDK `credentials` option). */
	credentials?: (entry: McpServerEntry) => McpOAuthServerStore;
	/** A tau `/login` provider token for entries with `auth.provider`. */
	providerToken?: (provider: string) => Promise<string | undefined>;
	/** Sees every OAuth provider created, so shutdown can wait for refreshes in flight to be saved. */
	onOAuthProvider?: (provider: { settled(): Promise<void> }) => void;
}

export type CreateMcpTransport = (entry: McpServerEntry, context: TransportContext) => McpTransport;

/** Builds the transport of an entry, resolving interpolated fields now so rotated secrets apply. */
export const createMcpTransport: CreateMcpTransport = (entry, context) => {
	const interpolation = { server: entry.name, env: context.env };
	if (entry.transport === "stdio") {
		const config = entry.config as McpStdioServerConfig;
		const cwd = config.cwd === undefined ? context.cwd : expandTilde(config.cwd);
		const options: StdioTransportOptions = {
			command: expandTilde(config.command),
			args: (config.args ?? []).map((arg) => (arg.startsWith("~/") ? expandTilde(arg) : arg)),
			cwd: isAbsolute(cwd) ? cwd : resolve(context.cwd, cwd),
			env: { ...(context.env as Record<string, string>), ...interpolateRecord(config.env, "env", interpolation) },
			inheritEnv: false,
		};
		return new StdioTransport(options);
	}
	const config = entry.config as McpHttpServerConfig;
	const headers = interpolateRecord(config.headers, "headers", interpolation);
	const options: StreamableHttpTransportOptions = { url: config.url };
	if (headers) options.headers = headers;
	const provider = config.auth?.provider;
	const hasAuthorization = Object.keys(headers ?? {}).some((name) => name.toLowerCase() === "authorization");
	if (provider !== undefined) {
		const getToken = context.providerToken;
		const authProvider: McpAuthProvider = { token: async () => getToken?.(provider) };
		options.authProvider = authProvider;
	} else if (!hasAuthorization && (context.credentials || context.agentDir)) {
		// OAuth only when the user did not configure credentials of their own.
		const authProvider = createMcpAuthProvider({
			serverUrl: config.url,
			store:
				context.credentials?.(entry) ??
				createMcpCredentialStore(context.agentDir!, entry.namespace, config.url, context.lockTiming),
			settings: () => config.oauth ?? {},
			clientName: "tau",
		});
		context.onOAuthProvider?.(authProvider);
		options.authProvider = authProvider;
	}
	return new StreamableHttpTransport(options);
};
