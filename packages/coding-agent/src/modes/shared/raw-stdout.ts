/**
 * stdout takeover for print, JSON and RPC modes (cli-modes.md §5.1): `process.stdout.write` is
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

/** Ordered protocol output: every write is chained after the previous one. */
export class RawWriter {
	private tail: Promise<void> = Promise.resolve();
	private pending = 0;
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
		this.pending++;
		const next = this.tail.then(() => this.writeWithRetry(text)).finally(() => this.pending--);
		this.tail = next;
		return next;
	}

	/** Resolves when everything queued so far is written (the agent awaits this at every event). */
	waitForBackpressure(): Promise<void> {
		return this.pending === 0 ? Promise.resolve() : this.tail;
	}

	/** Resolves when the queue is empty, including writes queued while waiting. */
	async flush(): Promise<void> {
		while (this.pending > 0) await this.tail;
	}

	private writeWithRetry(text: string): Promise<void> {
		return new Promise<void>((resolve) => {
			const attempt = () => {
				this.writeChunk(text, (error) => {
					if (!error) {
						resolve();
						return;
					}
					const code = (error as NodeJS.ErrnoException).code;
					if (code && RETRYABLE_WRITE_ERRORS.has(code)) {
						setTimeout(attempt, RETRY_DELAY_MS);
						return;
					}
					this.onFatalError(error);
					resolve();
				});
			};
			attempt();
		});
	}
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
