import { limitMcpContent, McpClient } from "@tau/mcp";
import { createInMemoryTransportPair } from "@tau/mcp/testing";
import type { Bench } from "../../../scripts/bench/api.js";
import { LineFramer } from "../src/transport/stdio/line-framer.js";

/** Request round trips over an in-memory pair, stdio framing throughput, and output limiting. */
const bench: Bench = async (ctx) => {
	const [clientSide, serverSide] = createInMemoryTransportPair();
	serverSide.onMessage((message) => {
		if (!("method" in message) || !("id" in message) || message.id === undefined) return;
		const result =
			message.method === "initialize"
				? {
						protocolVersion: "2025-11-25",
						capabilities: { tools: {} },
						serverInfo: { name: "bench", version: "1" },
					}
				: { content: [{ type: "text", text: "ok" }] };
		void serverSide.send({ jsonrpc: "2.0", id: message.id, result });
	});
	const client = new McpClient({ name: "tau", version: "bench" });
	await client.connect(clientSide);
	await ctx.time("callTool round trip (in-memory)", () => client.callTool("echo", { value: 1 }), {
		iterations: 2000,
		warmup: 100,
	});
	await client.close();

	const line = Buffer.from(
		`${JSON.stringify({ jsonrpc: "2.0", method: "m", params: { data: "x".repeat(1_000_000) } })}\n`,
	);
	await ctx.time(
		"stdio framing of a 1 MB message in 4 KiB chunks",
		() => {
			const framer = new LineFramer(16 * 1024 * 1024, { message: () => {}, error: () => {} });
			for (let i = 0; i < line.length; i += 4096) framer.push(line.subarray(i, i + 4096));
		},
		{ iterations: 50, warmup: 5 },
	);

	const big = [{ type: "text" as const, text: "日本語 text line\n".repeat(60_000) }];
	await ctx.time("limitMcpContent on ~1 MB multibyte text", () => limitMcpContent(big), { iterations: 50, warmup: 5 });
};

export default bench;
