import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { VmLauncher } from "../protocol.js";
import type { CodemodeWorkerData } from "../worker.js";

export interface WorkerLauncherOptions {
	workerUrl: string | URL;
	acquireWorker?(): () => void;
	onWorkerStarted?(exited: Promise<void>): void;
}

/**
 * The package's own worker module. From `dist` that is `worker.js` next to this file; when the
 * package runs from TypeScript sources (tests), Node cannot execute `.ts` in a worker, so the
 * compiled `dist/worker.js` is used.
 */
export function defaultWorkerUrl(): URL {
	const here = new URL("../worker.js", import.meta.url);
	if (import.meta.url.endsWith(".ts") && !existsSync(fileURLToPath(here))) {
		return new URL("../../dist/worker.js", import.meta.url);
	}
	return here;
}

/** Starts a new worker per run. Stopping never waits for the worker to exit. */
export function createWorkerLauncher(options: WorkerLauncherOptions): VmLauncher {
	return (start, events) => {
		const release = options.acquireWorker?.();
		let released = false;
		const releaseOnce = () => {
			if (released) return;
			released = true;
			release?.();
		};
		const interrupt = new SharedArrayBuffer(4);
		const data: CodemodeWorkerData = { start, interrupt };
		let worker: Worker;
		try {
			worker = new Worker(options.workerUrl, {
				workerData: data,
				// QuickJS diagnostics must never reach the host terminal (which may be a TUI).
				execArgv: [],
				stdout: true,
				stderr: true,
				resourceLimits: { stackSizeMb: 4 },
			});
		} catch (error) {
			releaseOnce();
			throw error;
		}
		worker.stdout.resume();
		worker.stderr.resume();
		let markExited!: () => void;
		const exited = new Promise<void>((resolve) => {
			markExited = resolve;
		});
		worker.on("message", (message: unknown) => events.message(message));
		worker.on("error", (error: Error) => events.failure(`Worker failed: ${error.message}`));
		worker.on("exit", (code: number) => {
			releaseOnce();
			markExited();
			events.failure(`Worker exited with code ${code} before the script settled`);
		});
		const stop = () => {
			Atomics.store(new Int32Array(interrupt), 0, 1);
			void worker.terminate();
			worker.unref();
		};
		try {
			options.onWorkerStarted?.(exited);
		} catch (error) {
			stop();
			throw error;
		}
		return { post: (message) => worker.postMessage(message), stop };
	};
}
