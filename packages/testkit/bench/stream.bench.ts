import { startMockLlmServer } from "@tau/testkit";
import type { Bench } from "../../../scripts/bench/api.js";

/** Reads a whole response body, returning its size, as a client consuming a stream would. */
async function drain(response: Response): Promise<number> {
	let bytes = 0;
	for await (const chunk of response.body ?? []) bytes += (chunk as Uint8Array).byteLength;
	return bytes;
}

/** The mock's own cost, so benchmarks built on it can tell their overhead from the server's. */
const bench: Bench = async (ctx) => {
	const server = await startMockLlmServer();
	server.setFactory((request) =>
		request.path.endsWith("?tiny") ? { text: "ok" } : { text: { tokens: 200_000 }, chunkSize: 1 },
	);
	const body = (stream: boolean) => JSON.stringify({ model: "m", max_tokens: 10, messages: [], stream });
	const post = (path: string, stream: boolean) =>
		fetch(server.url(path), { method: "POST", body: body(stream), headers: { "content-type": "application/json" } });
	try {
		await ctx.time(
			"non-streaming round trip (chat, tiny reply)",
			async () => {
				await drain(await post("/v1/chat/completions?tiny", false));
			},
			{ iterations: 200, warmup: 20 },
		);
		for (const path of ["/v1/messages", "/v1/chat/completions", "/v1/responses"]) {
			await ctx.time(
				`stream 200k tokens, 1 token per event (${path})`,
				async () => {
					await drain(await post(path, true));
				},
				{ iterations: 5, warmup: 1 },
			);
		}
	} finally {
		await server.close();
	}
};

export default bench;
