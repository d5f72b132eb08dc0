import { ToolCallArgumentsStream } from "@tau/ai";
import type { Bench } from "../../../scripts/bench/api.js";

/** A write-tool argument whose `content` makes up almost all of `bytes`. */
function toolArguments(bytes: number): string {
	const line = "export const value = compute(42); // a line of generated source code\n";
	const content = line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
	return JSON.stringify({ path: "src/generated.ts", content });
}

/** Streams `text` in `chunk`-byte deltas, taking the partial arguments after each one like an adapter does. */
function streamArguments(text: string, chunk: number): { ms: number; peakHeapMb: number } {
	const baseline = process.memoryUsage().heapUsed;
	let peak = baseline;
	const stream = new ToolCallArgumentsStream();
	const started = performance.now();
	for (let i = 0, deltas = 0; i < text.length; i += chunk, deltas++) {
		stream.append(text.slice(i, i + chunk));
		if (deltas % 512 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
	}
	stream.finish();
	const ms = performance.now() - started;
	peak = Math.max(peak, process.memoryUsage().heapUsed);
	return { ms, peakHeapMb: (peak - baseline) / 1e6 };
}

const SIZES = [125_000, 250_000, 500_000, 1_000_000];
const CHUNKS = [1, 16, 256];

/**
 * Streaming tool-argument parsing must stay linear: doubling the argument size should roughly double the
 * time and the peak heap, for every delta size (ai.md §11.1).
 */
const bench: Bench = async (ctx) => {
	for (const chunk of CHUNKS) {
		for (const size of SIZES) {
			const text = toolArguments(size);
			const times: number[] = [];
			const heaps: number[] = [];
			for (let run = 0; run < 5; run++) {
				const { ms, peakHeapMb } = streamArguments(text, chunk);
				times.push(ms);
				heaps.push(peakHeapMb);
			}
			const label = `tool args ${size / 1000} KB in ${chunk}-byte deltas`;
			ctx.record(`${label}: time`, "ms", times);
			ctx.record(`${label}: peak heap`, "MB", heaps);
		}
	}
};

export default bench;
