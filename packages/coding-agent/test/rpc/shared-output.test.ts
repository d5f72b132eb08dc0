import { PassThrough } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import {
	attachJsonlLineReader,
	BACKPRESSURE_LIMIT,
	JsonlSplitter,
	RawWriter,
	serializeJsonLine,
	takeOverStdout,
} from "../../src/modes/shared/index.js";

function split(chunks: (string | Buffer)[]): string[] {
	const lines: string[] = [];
	const splitter = new JsonlSplitter((line) => lines.push(line));
	for (const chunk of chunks) splitter.push(chunk);
	splitter.end();
	return lines;
}

describe("JSONL framing", () => {
	it("splits on LF only and strips one CR before it", () => {
		expect(split(['{"a":1}\r\n{"b":2}\n'])).toEqual(['{"a":1}', '{"b":2}']);
		expect(split(["x\r\r\n"])).toEqual(["x\r"]);
	});

	it("keeps U+2028 and U+2029 inside a record", () => {
		const record = serializeJsonLine({ text: "a\u2028b\u2029c" });
		expect(record.split("\n")).toHaveLength(2);
		const lines = split([Buffer.from(record + record)]);
		expect(lines).toHaveLength(2);
		expect(JSON.parse(lines[0]!).text).toBe("a\u2028b\u2029c");
	});

	it("decodes a multi-byte character split across chunks", () => {
		const bytes = Buffer.from('{"t":"é€😀"}\n');
		const lines = split([...bytes].map((byte) => Buffer.from([byte])));
		expect(JSON.parse(lines[0]!).t).toBe("é€😀");
	});

	it("processes a torn last line at EOF and ignores an empty tail", () => {
		expect(split(['{"a":1}\n{"b":2}'])).toEqual(['{"a":1}', '{"b":2}']);
		expect(split(['{"a":1}\n'])).toEqual(['{"a":1}']);
	});

	it("replaces invalid UTF-8 instead of failing, and handles a huge line", () => {
		const lines = split([Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a])]);
		expect(lines).toEqual(["{\uFFFD\uFFFD}"]);
		const huge = "x".repeat(5_000_000);
		const chunks: string[] = [];
		for (let i = 0; i < huge.length; i += 65536) chunks.push(huge.slice(i, i + 65536));
		chunks.push("\nnext\n");
		const out = split(chunks);
		expect(out.map((line) => line.length)).toEqual([5_000_000, 4]);
	});

	it("reads a stream and reports the end once", async () => {
		const stream = new PassThrough();
		const lines: string[] = [];
		const ended = new Promise<void>((resolve) => attachJsonlLineReader(stream, (line) => lines.push(line), resolve));
		stream.write("one\ntw");
		stream.end("o");
		await ended;
		expect(lines).toEqual(["one", "two"]);
	});
});

describe("RawWriter", () => {
	it("writes everything queued in one event-loop turn as one write, in order", async () => {
		const written: string[] = [];
		const writer = new RawWriter({
			write: (chunk, callback) => {
				written.push(chunk);
				callback();
			},
		});
		for (let i = 0; i < 1000; i++) void writer.write(`${i}\n`);
		expect(written).toEqual([]);
		await writer.flush();
		expect(written).toEqual([Array.from({ length: 1000 }, (_, i) => `${i}\n`).join("")]);
		await writer.write("next\n");
		expect(written).toEqual([expect.any(String), "next\n"]);
	});

	it("keeps one write in flight and retries EAGAIN after 10 ms", async () => {
		vi.useFakeTimers();
		try {
			const written: string[] = [];
			let failures = 1;
			const writer = new RawWriter({
				write: (chunk, callback) => {
					if (chunk === "c" && failures-- > 0) {
						callback(Object.assign(new Error("busy"), { code: "EAGAIN" }));
						return;
					}
					written.push(chunk);
					callback();
				},
			});
			void writer.write("a");
			void writer.write("b");
			await vi.advanceTimersByTimeAsync(0);
			expect(written).toEqual(["ab"]);
			const done = writer.write("c");
			await vi.advanceTimersByTimeAsync(0);
			expect(written).toEqual(["ab"]);
			await vi.advanceTimersByTimeAsync(10);
			await done;
			expect(written).toEqual(["ab", "c"]);
		} finally {
			vi.useRealTimers();
		}
	});

	it("reports a non-retryable error (EPIPE) as fatal", async () => {
		const fatal: Error[] = [];
		const writer = new RawWriter({
			write: (_chunk, callback) => callback(Object.assign(new Error("pipe"), { code: "EPIPE" })),
			onFatalError: (error) => fatal.push(error),
		});
		await writer.write("x");
		expect(fatal.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(["EPIPE"]);
	});

	it("holds the agent back only once the unwritten text reaches the limit, until the reader catches up", async () => {
		const callbacks: (() => void)[] = [];
		const writer = new RawWriter({ write: (_chunk, callback) => callbacks.push(() => callback()) });
		void writer.write("a");
		expect(writer.waitForBackpressure()).toBeUndefined();
		void writer.write("x".repeat(BACKPRESSURE_LIMIT));
		let drained = false;
		const waiting = writer.waitForBackpressure()!.then(() => {
			drained = true;
		});
		await new Promise<void>((resolve) => setImmediate(resolve));
		expect(callbacks).toHaveLength(1);
		expect(drained).toBe(false);
		let flushed = false;
		const flushing = writer.flush().then(() => {
			flushed = true;
		});
		callbacks.shift()!();
		await waiting;
		expect(drained).toBe(true);
		expect(writer.waitForBackpressure()).toBeUndefined();
		await flushing;
		expect(flushed).toBe(true);
	});
});

describe("stdout takeover", () => {
	it("redirects process.stdout.write to stderr until restored", () => {
		const original = process.stdout.write;
		const stderrWrite = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
		const takeover = takeOverStdout();
		try {
			process.stdout.write("stray\n");
			expect(stderrWrite).toHaveBeenCalledWith("stray\n");
		} finally {
			takeover.restore();
			stderrWrite.mockRestore();
		}
		expect(process.stdout.write).toBe(original);
	});
});
