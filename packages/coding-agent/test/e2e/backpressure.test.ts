import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliBuilt, mockServer, sandbox, startCli, writeMockModels } from "./harness.js";

/** Kernel pipe buffer plus the reader's high-water mark, with room to spare. */
const IN_FLIGHT_SLACK = 512 * 1024;

describe.skipIf(!cliBuilt)("JSON mode stdout backpressure (built CLI)", () => {
	it("a slow reader holds the agent back: the tool runs only after the reader consumed what came before", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const readSoFar = join(box.home, "read-so-far.txt");
		const seenByTool = join(box.home, "seen-by-tool.txt");
		writeFileSync(readSoFar, "0");
		server.enqueue(
			{
				blocks: [
					{ type: "text", text: "x".repeat(1_500_000) },
					{
						type: "toolCall",
						id: "call_1",
						name: "bash",
						arguments: { command: `cat ${readSoFar} > ${seenByTool}` },
					},
				],
				chunkSize: 100,
				stopReason: "toolUse",
			},
			{ text: "done" },
		);
		const child = startCli(box, ["--mode", "json", "go"]);
		const stdout = child.stdout!;
		stdout.pause();
		let received = 0;
		const chunks: Buffer[] = [];
		const finished = new Promise<number | null>((resolve) => child.on("close", resolve));
		await server.waitForRequest(0);
		// Read one chunk per macrotask, publishing the running total for the tool to copy.
		stdout.on("readable", function drain() {
			const chunk = stdout.read() as Buffer | null;
			if (!chunk) return;
			chunks.push(chunk);
			received += chunk.length;
			// Atomic replace: a plain rewrite truncates first, and the tool's `cat` could read it empty.
			writeFileSync(`${readSoFar}.tmp`, String(received));
			renameSync(`${readSoFar}.tmp`, readSoFar);
			setImmediate(() => drain());
		});
		expect(await finished).toBe(0);
		const output = Buffer.concat(chunks).toString("utf8");
		const toolStart = Buffer.byteLength(output.slice(0, output.indexOf('"type":"tool_execution_start"')));
		expect(toolStart).toBeGreaterThan(2 * IN_FLIGHT_SLACK);
		const seen = Number(readFileSync(seenByTool, "utf8"));
		expect(seen).toBeGreaterThanOrEqual(toolStart - IN_FLIGHT_SLACK);
	});
});
