import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { getLanguageFromPath, highlightCode } from "@tau/coding-agent";
import type { Bench } from "../../../scripts/bench/api.js";

/** Syntax highlighting runs for every code block the transcript renders, and again while one streams. */
const bench: Bench = async (ctx) => {
	const path = fileURLToPath(new URL("../src/core/agent-session/agent-session.ts", import.meta.url));
	const source = readFileSync(path, "utf8");
	const lang = getLanguageFromPath(path);
	const lines = source.split("\n");
	const block = lines.slice(0, 40).join("\n");
	await ctx.time(`highlightCode: ${lines.length}-line TypeScript file`, () => highlightCode(source, lang), {
		iterations: 50,
		warmup: 5,
	});
	await ctx.time("highlightCode: 40-line code block", () => highlightCode(block, lang), {
		iterations: 500,
		warmup: 20,
	});
};

export default bench;
