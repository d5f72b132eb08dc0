import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BashToolDetails, createBashTool } from "@tau/coding-agent";
import type { Bench } from "../../../scripts/bench/api.js";

const OUTPUT_MB = 200;

const bench: Bench = async (ctx) => {
	const dir = mkdtempSync(join(tmpdir(), "tau-bench-bash-"));
	const tool = createBashTool(dir);
	const throughput: number[] = [];
	const memory: number[] = [];
	try {
		for (let run = 0; run < 3; run++) {
			const baseline = process.memoryUsage();
			let peak = 0;
			const started = performance.now();
			const result = await tool.execute(
				"b",
				{
					command: `yes 0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz | head -c ${OUTPUT_MB * 1024 * 1024}`,
				},
				undefined,
				() => {
					const now = process.memoryUsage();
					peak = Math.max(peak, now.heapUsed + now.arrayBuffers - baseline.heapUsed - baseline.arrayBuffers);
				},
			);
			throughput.push(OUTPUT_MB / ((performance.now() - started) / 1000));
			memory.push(peak / (1024 * 1024));
			const path = (result.details as BashToolDetails | undefined)?.fullOutputPath;
			if (path) rmSync(path, { force: true });
		}
		ctx.record(`bash output throughput (${OUTPUT_MB} MB)`, "MB/s", throughput);
		ctx.record(`bash peak heap+buffers growth during ${OUTPUT_MB} MB`, "MB", memory);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
};

export default bench;
