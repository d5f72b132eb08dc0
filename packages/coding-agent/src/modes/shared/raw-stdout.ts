/**
 * stdout takeover for print, JSON and RPC modes (docs/design/cli.md#stdout-takeover): `process.stdout.write` is
 * redirected to stderr so stray `console.log` output can never corrupt the result or protocol
 * stream, and the real writer is kept private behind an ordered, backpressure-aware queue.
 */

const RETRYABLE_WRITE_ERRORS = new Set(["ENOBUFS", "EAGAIN", "EWOULDBLOCK"]);
const RETRY_DELAY_MS = 10;

type WriteFn = (chunk: string, callback: (error?: Error | null) => void) => void;

export interface RawWriterOptions {
	/** The real writer; default the original `process.stdout.write`. */
	write?: WriteFn;
	/** Called on a non-retryable write error; default exits the process with code 1. */
	onFatalError?: (error: Error) => void;
}

/**
 * Output the agent may run ahead of a slow reader before `waitForBackpressure` holds it: small enough
 * that memory stays bounded (docs/cli.md, JSON mode), large enough that a reader that keeps up never
 * stalls the agent. Four times the 64 KB a Linux pipe holds, so the agent keeps working through the
 * moments its reader is not scheduled instead of waiting for each pipe-full to drain.
 */
export const BACKPRESSURE_LIMIT = 256 * 1024;

interface Deferred {
	promise: Promise<void>;
	resolve: () => void;
}

function deferred(): Deferred {
	let resolve = () => {};
	const promise = new Promise<void>((done) => {
		resolve = done;
	});
	return { promise, resolve };
}

/**
 * Ordered protocol output, batched: everything written during one event-loop turn goes out as one
 * write on the next turn (docs/cli.md), so a stream of small events costs one system call per turn
 * instead of one per event. At most one write is in flight; later text waits for its callback.
 */
export class RawWriter {
	private queued: string[] = [];
	private queuedLength = 0;
	private inFlightLength = 0;
	private writing = false;
	private scheduled = false;
	/** Settles when the queued text has been handed to the stream. */
	private queuedBatch: Deferred | undefined;
	/** Settles when the writer is idle (nothing queued, nothing in flight). */
	private idle: Deferred | undefined;
	/** Settles when the text not yet written drops below `BACKPRESSURE_LIMIT`. */
	private belowLimit: Deferred | undefined;
	private readonly writeChunk: WriteFn;
	private readonly onFatalError: (error: Error) => void;

	constructor(options: RawWriterOptions = {}) {
		const stdout = process.stdout;
		const original = stdout.write;
		this.writeChunk =
			options.write ?? ((chunk, callback) => original.call(stdout, chunk, "utf8", (error) => callback(error)));
		this.onFatalError =
			options.onFatalError ??
			((error) => {
				process.stderr.write(`Error: stdout write failed: ${error.message}\n`);
				process.exit(1);
			});
	}

	/** Queues `text`; the returned promise settles when it has been handed to the stream. */
	write(text: string): Promise<void> {
		if (text === "") return Promise.resolve();
		this.queued.push(text);
		this.queuedLength += text.length;
		this.queuedBatch ??= deferred();
		if (!this.writing && !this.scheduled) {
			this.scheduled = true;
			setImmediate(() => {
				this.scheduled = false;
				if (!this.writing) this.writeQueued();
			});
		}
		return this.queuedBatch.promise;
	}

	/**
	 * `undefined` while the reader keeps up; otherwise a promise that settles once the unwritten text
	 * dropped below `BACKPRESSURE_LIMIT`. The agent awaits this at every event, so a reader that stops
	 * reading pauses the agent instead of growing memory.
	 */
	waitForBackpressure(): Promise<void> | undefined {
		if (this.queuedLength + this.inFlightLength < BACKPRESSURE_LIMIT) return undefined;
		this.belowLimit ??= deferred();
		return this.belowLimit.promise;
	}

	/** Resolves when everything queued so far is written, including text queued while waiting. */
	flush(): Promise<void> {
		if (!this.writing && this.queued.length === 0) return Promise.resolve();
		if (!this.writing && !this.scheduled) this.writeQueued();
		this.idle ??= deferred();
		return this.idle.promise;
	}

	private writeQueued(): void {
		const batch = this.queuedBatch;
		const text = this.queued.length === 1 ? (this.queued[0] as string) : this.queued.join("");
		this.queued = [];
		this.queuedBatch = undefined;
		this.inFlightLength = this.queuedLength;
		this.queuedLength = 0;
		this.writing = true;
		this.writeWithRetry(text, () => {
			this.writing = false;
			this.inFlightLength = 0;
			batch?.resolve();
			if (this.queued.length > 0) this.writeQueued();
			else this.idle = resolved(this.idle);
			if (this.queuedLength + this.inFlightLength < BACKPRESSURE_LIMIT) this.belowLimit = resolved(this.belowLimit);
		});
	}

	private writeWithRetry(text: string, done: () => void): void {
		const attempt = () => {
			this.writeChunk(text, (error) => {
				if (!error) {
					done();
					return;
				}
				const code = (error as NodeJS.ErrnoException).code;
				if (code && RETRYABLE_WRITE_ERRORS.has(code)) {
					setTimeout(attempt, RETRY_DELAY_MS);
					return;
				}
				this.onFatalError(error);
				done();
			});
		};
		attempt();
	}
}

/** Resolves a waiter and clears its slot. */
function resolved(waiter: Deferred | undefined): undefined {
	waiter?.resolve();
	return undefined;
}

export interface StdoutTakeover {
	writer: RawWriter;
	/** Puts the original `process.stdout.write` back (print mode does this when it finishes). */
	restore(): void;
}

/** Redirects `process.stdout.write` to stderr and returns the private writer for real output. */
export function takeOverStdout(options: Pick<RawWriterOptions, "onFatalError"> = {}): StdoutTakeover {
	const stdout = process.stdout;
	const original = stdout.write;
	const writer = new RawWriter({
		write: (chunk, callback) => {
			original.call(stdout, chunk, "utf8", (error) => callback(error));
		},
		...options,
	});
	const redirect = ((...args: unknown[]) =>
		Reflect.apply(process.stderr.write, process.stderr, args)) as typeof stdout.write;
	stdout.write = redirect;
	return {
		writer,
		restore: () => {
			if (stdout.write === redirect) stdout.write = original;
		},
	};
}
