import { limitMcpContent, MCP_OUTPUT_MAX_BYTES, toLlmContent } from "@tau/mcp";
import { describe, expect, it } from "vitest";

describe("toLlmContent", () => {
	it("maps each block type", () => {
		expect(
			toLlmContent({
				content: [
					{ type: "text", text: "hello" },
					{ type: "image", data: "AAAA", mimeType: "image/png" },
					{ type: "audio", data: "BBBB", mimeType: "audio/wav" },
					{ type: "resource_link", uri: "file:///a.txt", name: "a.txt" },
					{ type: "resource", resource: { uri: "file:///b", text: "embedded" } },
					{ type: "resource", resource: { uri: "file:///c.png", mimeType: "image/png", blob: "CCCC" } },
					{ type: "resource", resource: { uri: "file:///d.bin", mimeType: "application/zip", blob: "DDDD" } },
					{ type: "weird" } as never,
				],
			}),
		).toEqual([
			{ type: "text", text: "hello" },
			{ type: "image", data: "AAAA", mimeType: "image/png" },
			{ type: "text", text: expect.stringMatching(/omitted.*audio\/wav/) },
			{ type: "text", text: "a.txt: file:///a.txt" },
			{ type: "text", text: "embedded" },
			{ type: "image", data: "CCCC", mimeType: "image/png" },
			{ type: "text", text: expect.stringMatching(/file:\/\/\/d\.bin.*application\/zip/) },
			{ type: "text", text: expect.stringMatching(/weird/) },
		]);
	});

	it("renders structuredContent as 2-space JSON when there are no blocks", () => {
		expect(toLlmContent({ content: [], structuredContent: { a: [1] } })).toEqual([
			{ type: "text", text: '{\n  "a": [\n    1\n  ]\n}' },
		]);
	});
});

describe("limitMcpContent", () => {
	it("leaves small content alone", async () => {
		const content = [{ type: "text" as const, text: "x" }];
		expect(await limitMcpContent(content)).toEqual({ content });
	});

	it("middle-truncates 100 KB of multibyte text on character boundaries and saves the full text", async () => {
		const full = "日本語テキスト🙂\n".repeat(4000);
		let saved = "";
		const result = await limitMcpContent(
			[
				{ type: "text", text: full.slice(0, 5000) },
				{ type: "image", data: "AAAA", mimeType: "image/png" },
				{ type: "text", text: full.slice(5000) },
			],
			async (text) => {
				saved = text;
				return "/tmp/tau-mcp-full.txt";
			},
		);
		expect(saved).toBe(`${full.slice(0, 5000)}\n${full.slice(5000)}`);
		expect(result.fullOutputPath).toBe("/tmp/tau-mcp-full.txt");
		expect(result.content).toHaveLength(2);
		expect(result.content[1]).toEqual({ type: "image", data: "AAAA", mimeType: "image/png" });
		const text = (result.content[0] as { text: string }).text;
		expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MCP_OUTPUT_MAX_BYTES);
		expect(text).not.toContain("\uFFFD");
		const bytes = Buffer.byteLength(saved);
		expect(
			text.startsWith(
				`[Output truncated: ${bytes} bytes (~${Math.ceil(bytes / 4)} tokens), ${saved.split("\n").length} lines`,
			),
		).toBe(true);
		expect(text).toMatch(/…\d+ chars truncated…/);
		expect(text).toMatch(/Full output saved to \/tmp\/tau-mcp-full\.txt$/);
		const [, head] = text.split("\n\n", 2);
		expect(full.startsWith(head!.split("…")[0]!)).toBe(true);
	});

	it("names the save error when saving fails", async () => {
		const result = await limitMcpContent([{ type: "text", text: "a".repeat(30_000) }], async () => {
			throw new Error("disk full");
		});
		expect((result.content[0] as { text: string }).text).toMatch(/could not be saved: disk full$/);
		expect(result.fullOutputPath).toBeUndefined();
	});
});
