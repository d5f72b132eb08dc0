import { isAbsolute, resolve } from "node:path";
import { type McpAuthProvider, type McpTransport, StdioTransport, StreamableHttpTransport } from "@tau/mcp";
import { expandTilde } from "../../../config/index.js";
import { interpolateRecord } from "../config/interpolate.js";
import type { McpServerEntry } from "../config/load-config.js";

export interface TransportContext {
	cwd: string;
	env: NodeJS.ProcessEnv;
	/** A tau `/login` provider token for entries with `auth.provider`. */
	providerToken?: (provider: string) => Promise<string | undefined>;
}

export type CreateMcpTransport = (entry: McpServerEntry, context: TransportContext) => McpTransport;

/** Builds the transport of an entry, resolving interpolated fields now so rotated secrets apply. */
export const createMcpTransport: CreateMcpTransport = (entry, context) => {
	const interpolation = { server: entry.name, env: context.env };
	if (entry.transport === "stdio") {
		const config = entry.config as import("@tau/mcp").McpStdioServerConfig;
		const cwd = config.cwd === undefined ? context.cwd : expandTilde(config.cwd);
		const options: import("@tau/mcp").StdioTransportOptions = {
			command: expandTilde(config.command),
			args: (config.args ?? []).map((arg) => (arg.startsWith("~/") ? expandTilde(arg) : arg)),
			cwd: isAbsolute(cwd) ? cwd : resolve(context.cwd, cwd),
			env: { ...(context.env as Record<string, string>), ...interpolateRecord(config.env, "env", interpolation) },
			inheritEnv: false,
		};
		return new StdioTransport(options);
	}
	const config = entry.config as import("@tau/mcp").McpHttpServerConfig;
	const headers = interpolateRecord(config.headers, "headers", interpolation);
	const options: import("@tau/mcp").StreamableHttpTransportOptions = { url: config.url };
	if (headers) options.headers = headers;
	const provider = config.auth?.provider;
	if (provider !== undefined && context.providerToken) {
		const getToken = context.providerToken;
		const authProvider: McpAuthProvider = { token: () => getToken(provider) };
		options.authProvider = authProvider;
	}
	return new StreamableHttpTransport(options);
};
