import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEditTool } from "@tau/coding-agent";
import type { Bench } from "../../../scripts/bench/api.js";

const bench: Bench = async (ctx) => {
	const dir = mkdtempSync(join(tmpdir(), "tau-bench-edit-"));
	try {
		// About 10 MB: 200k lines of 50 bytes, CRLF to exercise the byte-preserving splice.
		const lines = Array.from({ length: 200_000 }, (_, i) => `line ${String(i).padStart(8, "0")} ${"x".repeat(30)}`);
		const path = join(dir, "big.txt");
		const tool = createEditTool(dir);
		let round = 0;
		await ctx.time(
			"edit 10 MB file (3 edits, CRLF)",
			async () => {
				writeFileSync(path, lines.join("\r\n"));
				round++;
				await tool.execute("b", {
					path: "big.txt",
					edits: [
						{ oldText: "line 00000010", newText: `first ${round}` },
						{ oldText: "line 00100000", newText: `middle ${round}\nadded` },
						{ oldText: "line 00199990", newText: `last ${round}` },
					],
				});
			},
			{ iterations: 5, warmup: 1 },
		);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
};

export default bench;
