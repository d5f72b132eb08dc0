import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { ToolCallArgumentsStream } from "@tau/ai";
import type { Bench } from "../../../scripts/bench/api.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** A write-tool argument whose `content` makes up almost all of `bytes`. */
function toolArguments(bytes: number): string {
	const line = "export const value = compute(42); // a line of generated source code\n";
	const content = line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
	return JSON.stringify({ path: "src/generated.ts", content });
}

/** Streams `text` in `chunk`-byte deltas, taking the partial arguments after each one like an adapter does. */
function streamArguments(text: string, chunk: number): { ms: number; peakHeapMb: number; liveHeapMb: number } {
	gc();
	const baseline = process.memoryUsage().heapUsed;
	let peak = baseline;
	const stream = new ToolCallArgumentsStream();
	const started = performance.now();
	for (let i = 0, deltas = 0; i < text.length; i += chunk, deltas++) {
		stream.append(text.slice(i, i + chunk));
		if (deltas % 512 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
	}
	const streamed = performance.now();
	peak = Math.max(peak, process.memoryUsage().heapUsed);
	// What the stream keeps alive once all deltas arrived, garbage collected first (not timed).
	gc();
	const live = process.memoryUsage().heapUsed;
	const finishing = performance.now();
	stream.finish();
	const ms = streamed - started + (performance.now() - finishing);
	return { ms, peakHeapMb: (peak - baseline) / 1e6, liveHeapMb: (live - baseline) / 1e6 };
}

const SIZES = [125_000, 250_000, 500_000, 1_000_000];
const CHUNKS = [1, 16, 256];

/**
 * Streaming tool-argument parsing must stay linear: doubling the argument size should roughly double the
 * time and the peak heap, for every delta size (docs/ai.md#streaming-cost).
 */
const bench: Bench = async (ctx) => {
	for (const chunk of CHUNKS) {
		for (const size of SIZES) {
			const text = toolArguments(size);
			const times: number[] = [];
			const heaps: number[] = [];
			const live: number[] = [];
			for (let run = 0; run < 5; run++) {
				const { ms, peakHeapMb, liveHeapMb } = streamArguments(text, chunk);
				times.push(ms);
				heaps.push(peakHeapMb);
				live.push(liveHeapMb);
			}
			const label = `tool args ${size / 1000} KB in ${chunk}-byte deltas`;
			ctx.record(`${label}: time`, "ms", times);
			ctx.record(`${label}: peak heap`, "MB", heaps);
			ctx.record(`${label}: live heap`, "MB", live);
		}
	}
};

export default bench;
