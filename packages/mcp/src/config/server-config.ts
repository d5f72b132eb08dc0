/** Where a server's tools are offered, in mcp.json vocabulary. */
export type McpExposure = "codemode" | "deferred" | "direct" | "hidden";

/** OAuth settings of an HTTP server entry: a pre-registered client, the callback address and the scope to request. */
export interface McpOAuthConfig {
	clientId?: string;
	clientSecret?: string;
	callbackPort?: number;
	callbackUrl?: string;
	scope?: string;
	clientName?: string;
	clientRegistration?: "auto" | "dcr" | "cimd";
	authServerMetadataUrl?: string;
}

interface McpCommonConfig {
	enabled?: boolean;
	description?: string;
	/** Seconds per request. */
	timeout?: number;
	exposure?: McpExposure;
	toolExposure?: Record<string, McpExposure>;
	[key: string]: unknown;
}

/** An `mcpServers` entry for a local server started as a child process speaking MCP over stdio. */
export interface McpStdioServerConfig extends McpCommonConfig {
	type?: "stdio";
	command: string;
	args?: string[];
	env?: Record<string, string>;
	cwd?: string;
}

/** An `mcpServers` entry for a remote server over Streamable HTTP: URL, headers and how to authorize. */
export interface McpHttpServerConfig extends McpCommonConfig {
	type?: "http" | "streamable-http";
	url: string;
	headers?: Record<string, string>;
	oauth?: McpOAuthConfig;
	auth?: { provider: string };
}

/** What `validateMcpServerConfig` returns: the entry typed as stdio or HTTP, or why it is invalid. */
export type McpServerConfigResult =
	| { kind: "stdio"; config: McpStdioServerConfig }
	| { kind: "http"; config: McpHttpServerConfig }
	| { kind: "invalid"; error: string };

/** Options of `validateMcpServerConfig`. */
export interface ValidateMcpServerConfigOptions {
	/** Whether tau has client metadata documents for `clientRegistration: "cimd"` (F.3: none yet). */
	checkMetadataDocumentCallback?: (callbackUrl: string | undefined) => boolean;
}

const EXPOSURES = new Set(["codemode", "deferred", "direct", "hidden"]);
const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringRecord(value: unknown): value is Record<string, string> {
	return isObject(value) && Object.values(value).every((item) => typeof item === "string");
}

function isLoopbackHost(host: string): boolean {
	return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

/** `codemode-deferred` is an alias of `codemode`. */
export function parseMcpExposure(value: unknown): McpExposure | undefined {
	if (value === "codemode-deferred") return "codemode";
	return typeof value === "string" && EXPOSURES.has(value) ? (value as McpExposure) : undefined;
}

/** An entry without `command`, `url` or `type` only adjusts a same-named entry of another file. */
export function isMcpServerOverride(entry: unknown): boolean {
	return isObject(entry) && entry.command === undefined && entry.url === undefined && entry.type === undefined;
}

function validateOAuth(raw: unknown, options: ValidateMcpServerConfigOptions): string | McpOAuthConfig {
	if (!isObject(raw)) return '"oauth" must be an object';
	for (const key of ["clientId", "clientSecret", "scope", "clientName"] as const) {
		if (raw[key] !== undefined && typeof raw[key] !== "string") return `"oauth.${key}" must be a string`;
	}
	if (raw.clientName === "") return '"oauth.clientName" must not be empty';
	const port = raw.callbackPort;
	if (port !== undefined && (!Number.isInteger(port) || (port as number) < 1 || (port as number) > 65535)) {
		return '"oauth.callbackPort" must be an integer from 1 to 65535';
	}
	if (raw.callbackUrl !== undefined) {
		if (typeof raw.callbackUrl !== "string" || !URL.canParse(raw.callbackUrl))
			return '"oauth.callbackUrl" must be a URL';
		const url = new URL(raw.callbackUrl);
		if (url.protocol !== "http:" || !isLoopbackHost(url.hostname) || url.search || url.hash) {
			return '"oauth.callbackUrl" must be an http URL on localhost, 127.0.0.1 or [::1] without query or fragment';
		}
		if (port !== undefined && url.port !== "" && Number(url.port) !== port) {
			return '"oauth.callbackUrl" port differs from "oauth.callbackPort"';
		}
	}
	const registration = raw.clientRegistration;
	if (registration !== undefined && registration !== "auto" && registration !== "dcr" && registration !== "cimd") {
		return '"oauth.clientRegistration" must be auto, dcr or cimd';
	}
	if (registration === "cimd") {
		if (raw.clientId !== undefined || raw.clientName !== undefined) {
			return '"oauth.clientRegistration": "cimd" excludes clientId and clientName';
		}
		const callback = raw.callbackUrl as string | undefined;
		if (!options.checkMetadataDocumentCallback?.(callback)) {
			return '"oauth.clientRegistration": "cimd" needs client metadata documents, which this build does not have';
		}
	}
	if (raw.authServerMetadataUrl !== undefined) {
		const value = raw.authServerMetadataUrl;
		if (typeof value !== "string" || !isSecureOrLoopbackUrl(value)) {
			return '"oauth.authServerMetadataUrl" must be an https (or loopback http) URL';
		}
	}
	return raw as McpOAuthConfig;
}

/** Whether a URL may carry credentials: `https:`, or `http:` to `localhost`, `127.0.0.1` or `[::1]`. */
export function isSecureOrLoopbackUrl(value: string): boolean {
	if (!URL.canParse(value)) return false;
	const url = new URL(value);
	return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
}

/** Validates one `mcpServers` entry; unknown fields are kept. */
export function validateMcpServerConfig(
	name: string,
	raw: unknown,
	options: ValidateMcpServerConfigOptions = {},
): McpServerConfigResult {
	const invalid = (error: string): McpServerConfigResult => ({
		kind: "invalid",
		error: `MCP server "${name}": ${error}`,
	});
	if (!SERVER_NAME.test(name)) return invalid("name may contain only letters, digits, _ and -");
	if (!isObject(raw)) return invalid("entry must be an object");
	const type = raw.type;
	if (type === "sse") {
		return invalid(
			'type "sse" (legacy HTTP+SSE) is not supported; use the server\'s Streamable HTTP URL (often ending in /mcp)',
		);
	}
	if (type !== undefined && type !== "stdio" && type !== "http" && type !== "streamable-http") {
		return invalid('"type" must be stdio, http or streamable-http');
	}
	if (raw.enabled !== undefined && typeof raw.enabled !== "boolean") return invalid('"enabled" must be a boolean');
	if (raw.description !== undefined && typeof raw.description !== "string")
		return invalid('"description" must be a string');
	if (
		raw.timeout !== undefined &&
		!(typeof raw.timeout === "number" && raw.timeout > 0 && Number.isFinite(raw.timeout))
	) {
		return invalid('"timeout" must be a positive number of seconds');
	}
	const config: Record<string, unknown> = { ...raw };
	if (raw.exposure !== undefined) {
		const exposure = parseMcpExposure(raw.exposure);
		if (!exposure) return invalid('"exposure" must be codemode, deferred, direct or hidden');
		config.exposure = exposure;
	}
	if (raw.toolExposure !== undefined) {
		if (!isObject(raw.toolExposure)) return invalid('"toolExposure" must be an object');
		const toolExposure: Record<string, McpExposure> = {};
		for (const [tool, value] of Object.entries(raw.toolExposure)) {
			const exposure = parseMcpExposure(value);
			if (!exposure) return invalid(`"toolExposure.${tool}" must be codemode, deferred, direct or hidden`);
			toolExposure[tool] = exposure;
		}
		config.toolExposure = toolExposure;
	}
	const isHttp = type === "http" || type === "streamable-http" || (type === undefined && raw.url !== undefined);
	const isStdio = type === "stdio" || (type === undefined && raw.url === undefined && raw.command !== undefined);
	if (isHttp) {
		if (typeof raw.url !== "string" || !URL.canParse(raw.url)) return invalid('"url" must be a URL');
		const protocol = new URL(raw.url).protocol;
		if (protocol !== "http:" && protocol !== "https:") return invalid('"url" must be http: or https:');
		if (raw.command !== undefined) return invalid('"command" and "url" cannot both be set');
		if (raw.headers !== undefined && !isStringRecord(raw.headers))
			return invalid('"headers" must map names to strings');
		if (raw.oauth !== undefined) {
			const oauth = validateOAuth(raw.oauth, options);
			if (typeof oauth === "string") return invalid(oauth);
		}
		if (raw.auth !== undefined) {
			if (!isObject(raw.auth) || typeof raw.auth.provider !== "string" || raw.auth.provider === "") {
				return invalid('"auth" must be { "provider": "<name>" }');
			}
			if (!isSecureOrLoopbackUrl(raw.url)) return invalid('"auth" needs an https (or loopback http) URL');
		}
		return { kind: "http", config: config as McpHttpServerConfig };
	}
	if (isStdio) {
		if (typeof raw.command !== "string" || raw.command.trim() === "")
			return invalid('"command" must be a non-empty string');
		if (raw.args !== undefined && !(Array.isArray(raw.args) && raw.args.every((arg) => typeof arg === "string"))) {
			return invalid('"args" must be an array of strings');
		}
		if (raw.env !== undefined && !isStringRecord(raw.env)) return invalid('"env" must map names to strings');
		if (raw.cwd !== undefined && typeof raw.cwd !== "string") return invalid('"cwd" must be a string');
		return { kind: "stdio", config: config as McpStdioServerConfig };
	}
	return invalid('needs "command" (stdio) or "url" (HTTP)');
}
