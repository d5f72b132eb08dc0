import type { McpExposure } from "@tau/mcp";

export interface AddRequest {
	name: string;
	local: boolean;
	entry: Record<string, unknown>;
}

const STDIO_ONLY = new Set(["--env", "--cwd"]);
const HTTP_ONLY = new Set([
	"--header",
	"--bearer-token-env-var",
	"--oauth-client-id",
	"--oauth-client-secret",
	"--oauth-callback-port",
	"--oauth-client-name",
	"--oauth-client-registration",
]);
const VALUE_OPTIONS = new Set([...STDIO_ONLY, ...HTTP_ONLY, "--url", "--exposure", "--description"]);

function keyValue(option: string, value: string): [string, string] {
	const eq = value.indexOf("=");
	if (eq <= 0) throw new Error(`${option} expects KEY=VALUE, got "${value}"`);
	return [value.slice(0, eq), value.slice(eq + 1)];
}

/** Parses `add <server> [opts] -- <cmd> [args…]` or `add <server> --url <url> [opts]`. */
export function parseAddArgs(args: readonly string[]): AddRequest {
	const dash = args.indexOf("--");
	const head = dash === -1 ? [...args] : args.slice(0, dash);
	const command = dash === -1 ? [] : args.slice(dash + 1);
	let name: string | undefined;
	let local = false;
	const seen: string[] = [];
	const values = new Map<string, string[]>();
	for (let i = 0; i < head.length; i++) {
		const arg = head[i]!;
		if (arg === "-l" || arg === "--local") {
			local = true;
			continue;
		}
		if (VALUE_OPTIONS.has(arg)) {
			const value = head[++i];
			if (value === undefined) throw new Error(`${arg} needs a value`);
			seen.push(arg);
			values.set(arg, [...(values.get(arg) ?? []), value]);
			continue;
		}
		if (arg.startsWith("-")) throw new Error(`Unknown option ${arg}`);
		if (name !== undefined) throw new Error(`Unexpected argument "${arg}" (put the server command after --)`);
		name = arg;
	}
	if (name === undefined) throw new Error("Usage: tau mcp add <server> [options] -- <command> [args…] | --url <url>");
	const url = values.get("--url")?.[0];
	if (url !== undefined && command.length > 0) throw new Error("Give either --url or a command after --, not both");
	if (url === undefined && command.length === 0)
		throw new Error("Give a command after -- (stdio) or --url <url> (HTTP)");
	const wrong = seen.filter((option) => (url === undefined ? HTTP_ONLY : STDIO_ONLY).has(option));
	if (wrong.length > 0) {
		throw new Error(
			`${[...new Set(wrong)].join(", ")} ${wrong.length > 1 ? "apply" : "applies"} only to ${url === undefined ? "HTTP" : "stdio"} servers`,
		);
	}
	const entry: Record<string, unknown> = {};
	if (url !== undefined) {
		entry.url = url;
		const headers: Record<string, string> = {};
		for (const header of values.get("--header") ?? []) {
			const [key, value] = keyValue("--header", header);
			headers[key] = value;
		}
		const tokenVar = values.get("--bearer-token-env-var")?.[0];
		if (tokenVar !== undefined) headers.Authorization = `Bearer \${${tokenVar}}`;
		if (Object.keys(headers).length > 0) entry.headers = headers;
		const oauth: Record<string, unknown> = {};
		const set = (option: string, key: string, map: (v: string) => unknown = (v) => v) => {
			const value = values.get(option)?.[0];
			if (value !== undefined) oauth[key] = map(value);
		};
		set("--oauth-client-id", "clientId");
		set("--oauth-client-secret", "clientSecret");
		set("--oauth-callback-port", "callbackPort", Number);
		set("--oauth-client-name", "clientName");
		set("--oauth-client-registration", "clientRegistration");
		if (Object.keys(oauth).length > 0) entry.oauth = oauth;
	} else {
		entry.command = command[0];
		if (command.length > 1) entry.args = command.slice(1);
		const env: Record<string, string> = {};
		for (const pair of values.get("--env") ?? []) {
			const [key, value] = keyValue("--env", pair);
			env[key] = value;
		}
		if (Object.keys(env).length > 0) entry.env = env;
		const cwd = values.get("--cwd")?.[0];
		if (cwd !== undefined) entry.cwd = cwd;
	}
	const exposure = values.get("--exposure")?.[0];
	if (exposure !== undefined && exposure !== "codemode") entry.exposure = exposure as McpExposure;
	const description = values.get("--description")?.[0];
	if (description !== undefined) entry.description = description;
	return { name, local, entry };
}
