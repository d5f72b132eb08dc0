import { McpError } from "@tau/mcp";
import { describe, expect, it } from "vitest";
import type { McpServerConnection } from "../../../src/builtin/mcp/connection/server-connection.js";
import { createResourceTools } from "../../../src/builtin/mcp/tools/resource-tools.js";

type Page = {
	resources?: Record<string, unknown>[];
	resourceTemplates?: Record<string, unknown>[];
	nextCursor?: string;
};

/** A connection whose client answers listings from pages keyed by cursor ("" = first page). */
function connection(name: string, client: Record<string, unknown>): McpServerConnection {
	return { name, request: (run: (c: unknown) => unknown) => run(client) } as unknown as McpServerConnection;
}

function pagesClient(pages: Record<string, Page>, templates?: Record<string, Page> | Error) {
	return {
		listResourcesPage: async (cursor?: string) => pages[cursor ?? ""],
		listResourceTemplatesPage: async (cursor?: string) => {
			if (templates instanceof Error) throw templates;
			return templates?.[cursor ?? ""] ?? { resourceTemplates: [] };
		},
	};
}

function tools(connections: McpServerConnection[]) {
	const [list, templates, read] = createResourceTools("direct", {
		resourceServers: () => connections,
		connectionFor: (server) => connections.find((c) => c.name === server),
	});
	const run = (tool: typeof list, args: Record<string, unknown>) =>
		tool!.execute("r1", args as never, undefined, undefined, {} as never);
	return {
		list: (args: Record<string, unknown>) => run(list, args),
		templates: (args: Record<string, unknown>) => run(templates, args),
		read: (args: Record<string, unknown>) => run(read, args),
	};
}

describe("MCP resource tools (D.10)", () => {
	const docs = connection(
		"docs",
		pagesClient(
			{
				"": {
					resources: [
						{ uri: "file:///a.md", name: "a", _meta: { x: 1 }, icons: [{ src: "i.png" }] },
						{ uri: "ui://widget", name: "app" },
					],
					nextCursor: "p2",
				},
				p2: {
					resources: [
						{ uri: "file:///b.md", name: "b", mimeType: "text/html;profile=mcp-app" },
						{ uri: "file:///c.md", name: "c" },
					],
				},
			},
			new McpError(-32601, "Method not found"),
		),
	);
	const broken = connection("broken", {
		listResourcesPage: async () => {
			throw new Error("server exploded");
		},
	});

	it("lists every page of every server, dropping MCP app resources, _meta and icons, and collecting errors", async () => {
		const { list } = tools([broken, docs]);
		const result = await list({});
		expect(result.structuredContent).toEqual({
			resources: [
				{ server: "docs", uri: "file:///a.md", name: "a" },
				{ server: "docs", uri: "file:///c.md", name: "c" },
			],
			errors: [{ server: "broken", error: "server exploded" }],
		});
	});

	it("the listing reaches the model as compact JSON, not pretty-printed", async () => {
		const { list } = tools([docs]);
		const result = await list({});
		const text = (result.content as { type: string; text: string }[])[0]!.text;
		expect(text).toBe(JSON.stringify(result.structuredContent));
		expect(text).not.toContain("\n");
	});

	it("with a server returns one page and its cursor; a cursor without a server is an error", async () => {
		const { list } = tools([docs]);
		expect((await list({ server: "docs" })).structuredContent).toEqual({
			resources: [{ server: "docs", uri: "file:///a.md", name: "a" }],
			nextCursor: "p2",
		});
		await expect(list({ cursor: "p2" })).rejects.toThrow(/cursor.*server/);
		await expect(list({ server: "nope" })).rejects.toThrow(/Unknown or disabled MCP server "nope"/);
	});

	it("treats -32601 on templates as no templates", async () => {
		const { templates } = tools([docs]);
		expect((await templates({})).structuredContent).toEqual({ resourceTemplates: [] });
	});

	it("reads text, images, text blobs and binary blobs, labelling several contents by URI; empty contents get a note", async () => {
		const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString("base64");
		const contents = [
			{ uri: "file:///a.md", text: "# A" },
			{ uri: "file:///dot.png", mimeType: "image/png", blob: png },
			{ uri: "file:///data.bin", mimeType: "application/octet-stream", blob: png },
			{ uri: "file:///notes.txt", mimeType: "text/plain", blob: Buffer.from("plain notes").toString("base64") },
		];
		const reader = connection("docs", {
			readResource: async (uri: string) => ({ contents: uri === "empty://" ? [] : contents }),
		});
		const { read } = tools([reader]);
		const result = await read({ server: "docs", uri: "file:///a.md" });
		const blocks = result.content as { type: string; text?: string; mimeType?: string }[];
		expect(blocks.map((b) => (b.type === "text" ? b.text!.split(" saved to ")[0] : b.mimeType))).toEqual([
			"--- file:///a.md ---",
			"# A",
			"--- file:///dot.png ---",
			"image/png",
			"--- file:///data.bin ---",
			"[Binary resource file:///data.bin (application/octet-stream)",
			"--- file:///notes.txt ---",
			// A text/plain blob is text: it reaches the model as such instead of a file.
			"plain notes",
		]);
		expect(result.structuredContent).toEqual({ server: "docs", uri: "file:///a.md", contents });
		const empty = await read({ server: "docs", uri: "empty://" });
		expect(empty.content).toEqual([{ type: "text", text: "Resource empty:// has no contents." }]);
	});
});
