import { ENV } from "../../config/env.js";

const DEFAULT_MAX_WORKERS = 2;
/** Longest wait for a free worker, whatever the script's own timeout. */
export const MAX_WORKER_WAIT_MS = 60_000;

/** `TAU_CODEMODE_MAX_WORKERS` when it is a positive integer, else 2; read at every admission. */
export function codemodeWorkerCapacity(env: NodeJS.ProcessEnv = process.env): number {
	const raw = env[ENV.codemodeMaxWorkers];
	const value = raw === undefined ? Number.NaN : Number(raw);
	return Number.isInteger(value) && value > 0 ? value : DEFAULT_MAX_WORKERS;
}

export interface WorkerPoolClock {
	setTimeout(fn: () => void, ms: number): unknown;
	clearTimeout(handle: unknown): void;
}

/** A reserved slot: handed to one worker (released when it exits) or released unused. */
export interface WorkerSlot {
	/** For `acquireWorker`: the returned release runs when the worker exits. Throws after `discard()`. */
	handOver(): () => void;
	/** Releases the slot if no worker took it, and forbids a later start. */
	discard(): void;
}

export class WorkerWaitError extends Error {
	constructor(
		message: string,
		readonly reason: "timeout" | "aborted",
	) {
		super(message);
		this.name = "WorkerWaitError";
	}
}

interface Waiter {
	grant(): void;
}

/** Process-wide admission for codemode workers, shared by every session; waiters are served FIFO. */
export class CodemodeWorkerPool {
	private busy = 0;
	private readonly waiters: Waiter[] = [];

	constructor(
		private readonly capacity: () => number = () => codemodeWorkerCapacity(),
		private readonly clock: WorkerPoolClock = {
			setTimeout: (fn, ms) => setTimeout(fn, ms),
			clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
		},
	) {}

	get inUse(): number {
		return this.busy;
	}

	/** Waits up to `waitMs` for a slot; rejects with `WorkerWaitError` on expiry or abort. */
	reserve(options: { waitMs: number; signal?: AbortSignal }): Promise<WorkerSlot> {
		const { signal, waitMs } = options;
		if (signal?.aborted) return Promise.reject(new WorkerWaitError("aborted while waiting for a worker", "aborted"));
		if (this.waiters.length === 0 && this.busy < this.capacity()) {
			this.busy++;
			return Promise.resolve(this.slot());
		}
		return new Promise((resolve, reject) => {
			const cleanup = () => {
				this.clock.clearTimeout(timer);
				signal?.removeEventListener("abort", onAbort);
				const index = this.waiters.indexOf(waiter);
				if (index >= 0) this.waiters.splice(index, 1);
			};
			const waiter: Waiter = {
				grant: () => {
					cleanup();
					resolve(this.slot());
				},
			};
			const onAbort = () => {
				cleanup();
				reject(new WorkerWaitError("aborted while waiting for a worker", "aborted"));
			};
			const timer = this.clock.setTimeout(() => {
				cleanup();
				reject(new WorkerWaitError("no worker became free in time", "timeout"));
			}, waitMs);
			signal?.addEventListener("abort", onAbort, { once: true });
			this.waiters.push(waiter);
		});
	}

	private slot(): WorkerSlot {
		let handed = false;
		let released = false;
		const release = () => {
			if (released) return;
			released = true;
			this.busy--;
			this.admitWaiters();
		};
		return {
			handOver: () => {
				if (handed || released) throw new Error("The codemode run already finished; its worker must not start");
				handed = true;
				return release;
			},
			discard: () => {
				if (!handed) release();
			},
		};
	}

	private admitWaiters(): void {
		while (this.waiters.length > 0 && this.busy < this.capacity()) {
			this.busy++;
			this.waiters[0]!.grant();
		}
	}
}

/** The pool every session in this process shares. */
export const sharedWorkerPool = new CodemodeWorkerPool();
