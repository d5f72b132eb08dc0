import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { describe, expect, it } from "vitest";
import { formatMcpToolResult } from "../../../src/builtin/mcp/tools/tool-result.js";

const texts = (content: { type: string; text?: string }[]) => content.flatMap((b) => (b.text ? [b.text] : []));

describe("MCP results for the model (D.7.1)", () => {
	it("describes resource links, pointing to read_mcp_resource only when the server has resources", async () => {
		const link = {
			type: "resource_link" as const,
			uri: "file:///docs/a.md",
			name: "a.md",
			title: "Doc A",
			mimeType: "text/markdown",
			size: 12,
			description: "The first doc",
		};
		const readable = await formatMcpToolResult({ content: [link] }, "docs", "find", true);
		expect(texts(readable.content)).toEqual([
			'[Resource link: Doc A <file:///docs/a.md> (text/markdown, 12 bytes) — The first doc; read it with read_mcp_resource { "server": "docs", "uri": "file:///docs/a.md" }]',
		]);
		const plain = await formatMcpToolResult({ content: [link] }, "docs", "find", false);
		expect(texts(plain.content)[0]).not.toMatch(/read_mcp_resource/);
	});

	it("inlines text-like blobs and saves other blobs to a tau-mcp temp file named after the URI", async () => {
		const json = Buffer.from('{"ok":true}').toString("base64");
		const binary = Buffer.from([0, 1, 2, 3]);
		const result = await formatMcpToolResult(
			{
				content: [
					{ type: "resource", resource: { uri: "mem://x.json", mimeType: "application/vnd.x+json", blob: json } },
					{
						type: "resource",
						resource: { uri: "mem://archive.zip", mimeType: "application/zip", blob: binary.toString("base64") },
					},
					{ type: "resource", resource: { uri: "https://example.com", blob: binary.toString("base64") } },
				],
			},
			"s",
			"t",
			false,
		);
		const [inline, saved, unnamed] = texts(result.content);
		expect(unnamed).toMatch(/unknown type, 4 bytes\) saved to \S+\/resource\.bin\]$/);
		expect(inline).toBe('{"ok":true}');
		const path = /saved to (\S+)\]$/.exec(saved!)?.[1];
		expect(saved).toMatch(/^\[Binary resource mem:\/\/archive\.zip \(application\/zip, 4 bytes\)/);
		expect(path && basename(path)).toBe("resource.zip");
		expect(path).toMatch(/tau-mcp-/);
		expect(readFileSync(path!)).toEqual(binary);
	});

	it("adds an error line when an error result has no text, and renders structured-only results as JSON", async () => {
		const image = { type: "image" as const, data: "aGk=", mimeType: "image/png" };
		const failed = await formatMcpToolResult({ content: [image], isError: true }, "s", "paint", false);
		expect(failed.isError).toBe(true);
		expect(failed.content[0]).toEqual({ type: "text", text: "MCP tool paint on server s returned an error." });
		expect(failed.content[1]).toEqual(image);
		const structured = await formatMcpToolResult(
			{ content: [], structuredContent: { temperature: 21 }, _meta: { trace: "x" } },
			"s",
			"weather",
			false,
		);
		expect(texts(structured.content)).toEqual(['{\n  "temperature": 21\n}']);
		expect(structured.structuredContent).toEqual({ content: [], structuredContent: { temperature: 21 } });
		expect(structured.details).toEqual({ server: "s", tool: "weather" });
	});
});
