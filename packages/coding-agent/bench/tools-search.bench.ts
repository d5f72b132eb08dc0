import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFindTool, createGrepTool, createSearchBinaryLocator, noSearchBinaries } from "@tau/coding-agent";
import type { Bench } from "../../../scripts/bench/api.js";

/** 100 packages × 10 directories × 100 files = 100k files, with a .gitignore'd build dir per package. */
function generateTree(root: string): void {
	writeFileSync(join(root, ".gitignore"), "build/\n");
	for (let p = 0; p < 100; p++) {
		for (let d = 0; d < 10; d++) {
			const dir = join(root, `pkg${p}`, `dir${d}`);
			mkdirSync(dir, { recursive: true });
			for (let f = 0; f < 100; f++) {
				const marker = f === 42 ? "needle" : "hay";
				writeFileSync(join(dir, `file${f}.${f % 2 ? "ts" : "js"}`), `export const value${f} = "${marker}";\n`);
			}
		}
	}
}

const bench: Bench = async (ctx) => {
	const root = mkdtempSync(join(tmpdir(), "tau-bench-search-"));
	try {
		generateTree(root);
		const system = createSearchBinaryLocator();
		const variants = [
			{ label: "built-in", binaries: noSearchBinaries },
			...((await system.locate("rg")).binary && (await system.locate("fd")).binary
				? [{ label: "rg/fd", binaries: system }]
				: []),
		];
		for (const { label, binaries } of variants) {
			const grep = createGrepTool(root, { binaries });
			const find = createFindTool(root, { binaries });
			await ctx.time(`grep 100k files (${label})`, () => grep.execute("b", { pattern: "needle", limit: 2000 }), {
				iterations: 3,
				warmup: 1,
			});
			await ctx.time(
				`find *.ts in 100k files (${label})`,
				() => find.execute("b", { pattern: "*.ts", limit: 100_000 }),
				{
					iterations: 3,
					warmup: 1,
				},
			);
		}
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
};

export default bench;
