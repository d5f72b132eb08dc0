import type { Tool } from "@tau/mcp";
import { createMcpToolName, normalizeMcpInputSchema } from "@tau/mcp";
import type { TSchema } from "typebox";
import type { AnyToolDefinition, ToolAnnotations } from "../../../core/extensions/index.js";
import type { McpServerConnection } from "../connection/server-connection.js";
import { getMcpToolExposure, toToolExposure } from "../exposure.js";
import { formatMcpToolResult, type McpToolDetails, mcpOutputSchema } from "./tool-result.js";

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

function annotationsOf(tool: Tool): ToolAnnotations | undefined {
	const out: ToolAnnotations = {};
	for (const hint of HINTS) {
		const value = tool.annotations?.[hint];
		if (typeof value === "boolean") out[hint] = value;
	}
	return Object.keys(out).length > 0 ? out : undefined;
}

function describe(tool: Tool, server: string): string {
	return (
		tool.description?.trim() ||
		tool.title?.trim() ||
		tool.annotations?.title?.trim() ||
		`MCP tool ${tool.name} from server ${server}`
	);
}

export interface ServerToolsHost {
	register(definition: AnyToolDefinition): void;
	/** Re-activates `direct` tools that were hidden and are offered again. */
	activate(names: string[]): void;
	/** Whether the connection is the live one for its server and enabled. */
	connectionFor(server: string): McpServerConnection | undefined;
}

/** Registers one server's tools, remembering names so a re-listing keeps them and withdrawn ones become hidden. */
export class ServerTools {
	/** Tool name (server's original) => registered name. */
	private readonly registered = new Map<string, string>();
	private readonly definitions = new Map<string, AnyToolDefinition>();

	constructor(
		private readonly server: string,
		private readonly owners: Map<string, string>,
		private readonly host: ServerToolsHost,
	) {}

	/** Registered name of an original tool name, if any. */
	nameOf(tool: string): string | undefined {
		return this.registered.get(tool);
	}

	names(): string[] {
		return [...this.registered.values()];
	}

	/** Registers the connection's current tools; withdrawn ones are re-registered `hidden`. */
	sync(connection: McpServerConnection): void {
		const offered = new Map(connection.tools.map((tool) => [tool.name, tool]));
		const names = createMcpToolName(this.server, [...offered.keys()], this.owners);
		const reoffered: string[] = [];
		for (const [original, tool] of offered) {
			const name = names.get(original)!;
			const wasHidden = this.definitions.get(name)?.exposure === "hidden";
			this.registered.set(original, name);
			this.registerTool(name, tool, connection);
			if (wasHidden && this.definitions.get(name)?.exposure === "direct") reoffered.push(name);
		}
		if (reoffered.length > 0) this.host.activate(reoffered);
		for (const [original, name] of this.registered) {
			if (!offered.has(original)) this.hide(name);
		}
	}

	/** Re-registers every tool hidden (server disabled or removed). */
	hideAll(): void {
		for (const name of this.registered.values()) this.hide(name);
	}

	private hide(name: string): void {
		const definition = this.definitions.get(name);
		if (definition && definition.exposure !== "hidden") {
			const hidden = { ...definition, exposure: "hidden" as const };
			this.definitions.set(name, hidden);
			this.host.register(hidden);
		}
	}

	private registerTool(name: string, tool: Tool, connection: McpServerConnection): void {
		const server = this.server;
		const entry = connection.entry;
		const host = this.host;
		const description = entry.config.description;
		const definition: AnyToolDefinition = {
			name,
			label: `${server}/${tool.name}`,
			description: describe(tool, server),
			parameters: normalizeMcpInputSchema(tool.inputSchema) as unknown as TSchema,
			outputSchema: mcpOutputSchema(tool.outputSchema) as unknown as TSchema,
			exposure: toToolExposure(getMcpToolExposure(entry, tool.name)),
			namespace: {
				name: entry.namespace,
				aliases: [server],
				...(description ? { description } : {}),
				...(connection.instructions ? { instructions: connection.instructions } : {}),
			},
			...(annotationsOf(tool) ? { annotations: annotationsOf(tool) } : {}),
			async execute(_id, params, signal, onUpdate) {
				const live = host.connectionFor(server);
				if (!live) throw new Error(`MCP server "${server}" is disabled`);
				if (live.state === "failed" || live.state === "needs-auth") {
					throw new Error(live.error ?? `MCP server "${server}" is not connected`);
				}
				const current = live.tools.find((candidate) => candidate.name === tool.name);
				if (live.state === "connected" && (!current || getMcpToolExposure(live.entry, tool.name) === "hidden")) {
					throw new Error(`MCP tool ${tool.name} on server "${server}" is no longer available`);
				}
				const details: McpToolDetails = { server, tool: tool.name };
				const result = await live.request((client) =>
					client.callTool(tool.name, params as Record<string, unknown>, {
						...(signal ? { signal } : {}),
						onProgress: (progress) => {
							const text =
								progress.message ??
								`Progress ${progress.progress}${progress.total === undefined ? "" : `/${progress.total}`}`;
							onUpdate?.({ content: [{ type: "text", text }], details });
						},
					}),
				);
				const formatted = await formatMcpToolResult(result, server, tool.name, live.hasResources);
				return {
					content: formatted.content,
					details: formatted.details,
					structuredContent: formatted.structuredContent as never,
					...(formatted.isError ? { isError: true } : {}),
				};
			},
		};
		this.definitions.set(name, definition);
		this.host.register(definition);
	}
}
