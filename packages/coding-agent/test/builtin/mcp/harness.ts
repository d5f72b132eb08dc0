import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionAPI } from "@tau/coding-agent";
import type { McpTransport } from "@tau/mcp";
import { StdioTransport } from "@tau/mcp";
import { expect, vi } from "vitest";
import { createMcpTransport } from "../../../src/builtin/mcp/connection/create-transport.js";
import { createMcpExtension, type McpExtensionOptions } from "../../../src/builtin/mcp/index.js";
import type { AnyToolDefinition } from "../../../src/core/extensions/index.js";
import { createHarness, type Harness, type HarnessOptions } from "../../agent-session/harness.js";
import { tempDir } from "../../support/isolated-session.js";

// Real servers from npm: ./test.sh installs them with scripts/mcp-test-servers.mjs and passes their bin
// dir in. Without it the tests that need them skip (the suite names say why).
const realServersBin = process.env.TAU_MCP_SERVERS ?? "";
const realServer = (name: string) => (realServersBin === "" ? "" : join(realServersBin, name));
export const realServersInstalled = realServersBin !== "" && existsSync(realServer("mcp-server-everything"));
export const SERVER_EVERYTHING = realServer("mcp-server-everything");
export const SERVER_FILESYSTEM = realServer("mcp-server-filesystem");
export const SERVER_MEMORY = realServer("mcp-server-memory");

export interface McpHarness extends Harness {
	mcpAgentDir: string;
	api: ExtensionAPI;
	transports: McpTransport[];
	notifications: { message: string; type?: string }[];
	/** Tool names declared to the model, per request. */
	declared: string[][];
	/** System text per request (all system messages joined). */
	systemTexts: string[];
}

export function writeMcpJson(
	dir: string,
	servers: Record<string, unknown>,
	extra: Record<string, unknown> = {},
): string {
	mkdirSync(dir, { recursive: true });
	const path = join(dir, "mcp.json");
	writeFileSync(path, JSON.stringify({ mcpServers: servers, ...extra }, null, 2));
	return path;
}

/** A session with `builtin:mcp` loaded inline, an isolated agent dir, and recorded transports and notices. */
export async function createMcpHarness(
	servers: Record<string, unknown>,
	options: {
		mcp?: McpExtensionOptions;
		harness?: HarnessOptions;
		extraExtensions?: ((pi: ExtensionAPI) => void)[];
		/** Top-level mcp.json keys besides `mcpServers`. */
		mcpFile?: Record<string, unknown>;
	} = {},
): Promise<McpHarness> {
	const mcpAgentDir = tempDir("tau-mcp-agent-");
	writeMcpJson(mcpAgentDir, servers, options.mcpFile);
	const transports: McpTransport[] = [];
	let api: ExtensionAPI | undefined;
	const factory = createMcpExtension({
		agentDir: mcpAgentDir,
		createTransport: (entry, context) => {
			const transport = createMcpTransport(entry, context);
			transports.push(transport);
			return transport;
		},
		...options.mcp,
	});
	const h = await createHarness({
		...options.harness,
		loader: {
			extensionFactories: [
				(pi: ExtensionAPI) => {
					api = pi;
					return factory(pi);
				},
				...(options.extraExtensions ?? []),
			],
			...options.harness?.loader,
		},
	});
	const notifications: McpHarness["notifications"] = [];
	await h.session.bindExtensions({
		// Only notify matters here; every other UI method is a no-op.
		uiContext: new Proxy(
			{
				notify: (message: string, type?: string) =>
					notifications.push(type === undefined ? { message } : { message, type }),
			},
			{ get: (target, key) => (key in target ? target[key as "notify"] : () => undefined) },
		) as never,
	});
	const declared: string[][] = [];
	const systemTexts: string[] = [];
	const original = h.session.agent.streamFunction;
	h.session.agent.streamFunction = (model, context, streamOptions) => {
		const system = context.messages.filter((message) => (message as { role: string }).role === "system");
		const names = new Set<string>();
		for (const message of system) {
			for (const tool of (message as { toolsAdded?: { name: string }[] }).toolsAdded ?? []) names.add(tool.name);
			for (const name of (message as { toolsRemoved?: string[] }).toolsRemoved ?? []) names.delete(name);
		}
		declared.push([...names]);
		systemTexts.push(JSON.stringify(system));
		return original(model, context, streamOptions);
	};
	return { ...h, mcpAgentDir, api: api!, transports, notifications, declared, systemTexts };
}

/** Resolves once a registered tool name starts with `prefix` (servers connect in the background). */
export async function waitForTools(h: McpHarness, prefix: string): Promise<void> {
	await vi.waitFor(() => expect(h.session.getAllTools().some((tool) => tool.name.startsWith(prefix))).toBe(true), {
		timeout: 15_000,
	});
}

/** A stand-in `codemode` tool declaring `reachesTools`, like the real built-in. */
export function fakeCodemode(calls: string[] = []): (pi: ExtensionAPI) => void {
	return (pi) => {
		const tool: AnyToolDefinition = {
			name: "codemode",
			label: "codemode",
			description: "Run a script",
			parameters: { type: "object", properties: { code: { type: "string" } } } as never,
			exposure: "model-only",
			defaultActive: false,
			reachesTools: (input) => String(input.code ?? "").split(/[^A-Za-z0-9_]+/),
			async execute(_id, params, _signal, _onUpdate, ctx) {
				const [name, args] = JSON.parse(String((params as { code: string }).code)) as [string, unknown];
				calls.push(name);
				const outcome = await ctx.executeTool(name, args);
				return { content: [{ type: "text", text: JSON.stringify(outcome) }], details: undefined };
			},
		};
		pi.registerTool(tool);
	};
}

/** Live (non-zombie) processes of a process group. */
export function liveGroupMembers(pgid: number): number[] {
	const out = execFileSync("ps", ["-A", "-o", "pid=,pgid=,stat="], { encoding: "utf8" });
	return out
		.split("\n")
		.map((line) => line.trim().split(/\s+/))
		.filter((parts) => parts.length === 3 && Number(parts[1]) === pgid && !parts[2]!.startsWith("Z"))
		.map((parts) => Number(parts[0]));
}

/** Shuts the session down and asserts every spawned server group is gone. */
export async function shutdownAndAssertNoProcesses(h: McpHarness): Promise<void> {
	await h.session.shutdown();
	const groups = h.transports.flatMap((t) => (t instanceof StdioTransport && t.pid !== undefined ? [t.pid] : []));
	for (const pgid of groups) {
		let members = liveGroupMembers(pgid);
		for (let i = 0; i < 200 && members.length > 0; i++) {
			await new Promise((resolve) => setTimeout(resolve, 25));
			members = liveGroupMembers(pgid);
		}
		expect(members).toEqual([]);
	}
}
