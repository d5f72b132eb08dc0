import { realpath } from "node:fs/promises";
import { resolve } from "node:path";

/** Tail promise of the work queued per file key; removed when the last waiter finishes. */
const queues = new Map<string, Promise<unknown>>();
// Key computation is async (realpath); chaining registrations keeps callers in call order.
let registration: Promise<unknown> = Promise.resolve();

async function queueKey(filePath: string): Promise<string> {
	const absolute = resolve(filePath);
	try {
		return await realpath(absolute);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return absolute;
		throw error;
	}
}

/**
 * Runs `fn` after every earlier mutation of the same file (symlink aliases share a key) has
 * settled; mutations of different files run in parallel. In-process only.
 */
export function withFileMutationQueue<T>(filePath: string, fn: () => Promise<T>): Promise<T> {
	const enqueued = registration.then(async () => {
		const key = await queueKey(filePath);
		const previous = queues.get(key) ?? Promise.resolve();
		const run = previous.then(
			() => fn(),
			() => fn(),
		);
		const tail = run.then(
			() => undefined,
			() => undefined,
		);
		queues.set(key, tail);
		void tail.then(() => {
			if (queues.get(key) === tail) queues.delete(key);
		});
		return { run };
	});
	registration = enqueued.then(
		() => undefined,
		() => undefined,
	);
	return enqueued.then(({ run }) => run);
}
