import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createReadTool } from "@tau/coding-agent";
import type { Bench } from "../../../scripts/bench/api.js";

/** The read tool on the local filesystem: the per-call cost is dominated by file opens for small files. */
const bench: Bench = async (ctx) => {
	const dir = mkdtempSync(join(tmpdir(), "tau-bench-read-"));
	try {
		const lines = (count: number) =>
			Array.from({ length: count }, (_, i) => `line ${i} ${"x".repeat(40)}`).join("\n");
		writeFileSync(join(dir, "small.ts"), lines(50));
		writeFileSync(join(dir, "medium.ts"), lines(1500));
		writeFileSync(join(dir, "large.log"), lines(200_000));
		const tool = createReadTool(dir);
		await ctx.time("read: small file (50 lines)", () => tool.execute("b", { path: "small.ts" }), {
			iterations: 2000,
			warmup: 100,
		});
		await ctx.time("read: medium file (1,500 lines)", () => tool.execute("b", { path: "medium.ts" }), {
			iterations: 500,
			warmup: 20,
		});
		await ctx.time(
			"read: 10 MB file, offset 100000 limit 50",
			() => tool.execute("b", { path: "large.log", offset: 100_000, limit: 50 }),
			{ iterations: 20, warmup: 2 },
		);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
};

export default bench;
