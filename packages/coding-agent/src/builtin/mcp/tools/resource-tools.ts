import type { ImageContent, TextContent } from "@tau/ai";
import { JSON_RPC_ERROR_CODES, limitMcpContent, McpError } from "@tau/mcp";
import type { TSchema } from "typebox";
import type { AnyToolDefinition, ToolExposure } from "../../../core/extensions/index.js";
import { jsonSchema } from "../../../core/tools/json-schema.js";
import type { McpServerConnection } from "../connection/server-connection.js";
import { blobFileName, saveMcpTempFile } from "./temp-files.js";
import { isTextMime } from "./text-mime.js";

const LIST_PARAMETERS = jsonSchema<TSchema>({
	type: "object",
	properties: { server: { type: "string" }, cursor: { type: "string" } },
});
const READ_PARAMETERS = jsonSchema<TSchema>({
	type: "object",
	required: ["server", "uri"],
	properties: { server: { type: "string" }, uri: { type: "string" } },
});

export interface ResourceToolsHost {
	/** Enabled connections offering resources, sorted by server name. */
	resourceServers(): McpServerConnection[];
	connectionFor(server: string): McpServerConnection | undefined;
}

function isMcpApp(item: Record<string, unknown>): boolean {
	const uri = typeof item.uri === "string" ? item.uri : typeof item.uriTemplate === "string" ? item.uriTemplate : "";
	const mime = typeof item.mimeType === "string" ? item.mimeType : "";
	return uri.startsWith("ui://") || /profile=mcp-app/.test(mime);
}

function clean(server: string, item: Record<string, unknown>): Record<string, unknown> {
	const { _meta, icons, ...rest } = item;
	return { server, ...rest };
}

async function jsonResult(value: Record<string, unknown>) {
	// Compact JSON: indentation would cost the model about a quarter more tokens for nothing.
	const limited = await limitMcpContent([{ type: "text", text: JSON.stringify(value) }], async (text) =>
		saveMcpTempFile("output.json", text),
	);
	return {
		content: limited.content as (TextContent | ImageContent)[],
		details: undefined,
		structuredContent: value as never,
	};
}

function listTool(
	name: "list_mcp_resources" | "list_mcp_resource_templates",
	exposure: ToolExposure,
	host: ResourceToolsHost,
): AnyToolDefinition {
	const key = name === "list_mcp_resources" ? "resources" : "resourceTemplates";
	const fetchPage = async (connection: McpServerConnection, cursor: string | undefined) => {
		try {
			return await connection.request(
				async (client) => {
					if (name === "list_mcp_resources") {
						const page = await client.listResourcesPage(cursor);
						return { items: page.resources as unknown as Record<string, unknown>[], nextCursor: page.nextCursor };
					}
					const page = await client.listResourceTemplatesPage(cursor);
					return {
						items: page.resourceTemplates as unknown as Record<string, unknown>[],
						nextCursor: page.nextCursor,
					};
				},
				{ readOnly: true },
			);
		} catch (error) {
			// Servers without templates answer -32601: they simply have none.
			if (
				name === "list_mcp_resource_templates" &&
				error instanceof McpError &&
				error.code === JSON_RPC_ERROR_CODES.methodNotFound
			) {
				return { items: [], nextCursor: undefined };
			}
			throw error;
		}
	};
	return {
		name,
		label: name,
		description:
			name === "list_mcp_resources"
				? "List resources offered by MCP servers. Pass `server` for one page of one server (with `cursor` to continue); omit it for all servers."
				: "List resource templates offered by MCP servers. Pass `server` for one page of one server (with `cursor` to continue); omit it for all servers.",
		parameters: LIST_PARAMETERS,
		exposure,
		annotations: { readOnlyHint: true },
		async execute(_id, params) {
			const { server, cursor } = params as { server?: string; cursor?: string };
			if (server === undefined) {
				if (cursor !== undefined) throw new Error("`cursor` requires `server`");
				const items: Record<string, unknown>[] = [];
				const errors: { server: string; error: string }[] = [];
				for (const connection of host.resourceServers()) {
					try {
						let next: string | undefined;
						do {
							const page = await fetchPage(connection, next);
							items.push(
								...page.items.filter((item) => !isMcpApp(item)).map((item) => clean(connection.name, item)),
							);
							next = page.nextCursor;
						} while (next !== undefined);
					} catch (error) {
						errors.push({ server: connection.name, error: (error as Error).message });
					}
				}
				return jsonResult(errors.length > 0 ? { [key]: items, errors } : { [key]: items });
			}
			const connection = host.connectionFor(server);
			if (!connection) throw new Error(`Unknown or disabled MCP server "${server}"`);
			const page = await fetchPage(connection, cursor);
			const items = page.items.filter((item) => !isMcpApp(item)).map((item) => clean(server, item));
			return jsonResult(
				page.nextCursor === undefined ? { [key]: items } : { [key]: items, nextCursor: page.nextCursor },
			);
		},
	};
}

function readTool(exposure: ToolExposure, host: ResourceToolsHost): AnyToolDefinition {
	return {
		name: "read_mcp_resource",
		label: "read_mcp_resource",
		description: "Read a resource of an MCP server by URI.",
		parameters: READ_PARAMETERS,
		exposure,
		annotations: { readOnlyHint: true },
		async execute(_id, params, signal) {
			const { server, uri } = params as { server: string; uri: string };
			const connection = host.connectionFor(server);
			if (!connection) throw new Error(`Unknown or disabled MCP server "${server}"`);
			const result = await connection.request((client) => client.readResource(uri, signal ? { signal } : {}), {
				readOnly: true,
			});
			const content: (TextContent | ImageContent)[] = [];
			const labeled = result.contents.length > 1;
			for (const item of result.contents) {
				if (labeled) content.push({ type: "text", text: `--- ${item.uri} ---` });
				if ("text" in item) content.push({ type: "text", text: item.text });
				else if (isTextMime(item.mimeType))
					content.push({ type: "text", text: Buffer.from(item.blob, "base64").toString("utf8") });
				else if (item.mimeType?.startsWith("image/"))
					content.push({ type: "image", data: item.blob, mimeType: item.mimeType });
				else {
					const path = saveMcpTempFile(blobFileName(item.uri), Buffer.from(item.blob, "base64"));
					content.push({
						type: "text",
						text: `[Binary resource ${item.uri} (${item.mimeType ?? "unknown type"}) saved to ${path}]`,
					});
				}
			}
			if (content.length === 0) content.push({ type: "text", text: `Resource ${uri} has no contents.` });
			const limited = await limitMcpContent(content, async (text) => saveMcpTempFile("resource.txt", text));
			return {
				content: limited.content as (TextContent | ImageContent)[],
				details: undefined,
				structuredContent: { server, uri, contents: result.contents } as never,
			};
		},
	};
}

export function createResourceTools(exposure: ToolExposure, host: ResourceToolsHost): AnyToolDefinition[] {
	return [
		listTool("list_mcp_resources", exposure, host),
		listTool("list_mcp_resource_templates", exposure, host),
		readTool(exposure, host),
	];
}
