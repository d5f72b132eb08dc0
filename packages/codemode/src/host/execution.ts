import { MAX_OUTPUT_CHARS, MAX_OUTPUT_ITEMS } from "../limits.js";
import type { VmChannel, VmLauncher, VmStartData } from "../protocol.js";
import type { CodemodeCall, CodemodeError, CodemodeOutputItem, CodemodeResult, CodemodeTool } from "../types.js";

const BRIDGE_BROKEN = "The sandbox bridge broke, possibly because the script modified built-ins";

interface PendingCall {
	controller: AbortController;
	record?: CodemodeCall;
	startedAt: number;
}

export interface ExecutionSetup {
	start: VmStartData;
	tools: ReadonlyMap<string, CodemodeTool>;
	globals: ReadonlyMap<string, CodemodeTool>;
	launcher: VmLauncher;
	timeoutMs: number;
	signal?: AbortSignal;
}

/**
 * One run on the host side: owns call records, output, the deadline and abort, and validates
 * every message from the VM. The first terminal event wins; later ones are ignored.
 */
export class Execution {
	readonly result: Promise<CodemodeResult>;
	private resolve!: (result: CodemodeResult) => void;
	private settled = false;
	private channel: VmChannel | undefined;
	private readonly queuedReplies: Parameters<VmChannel["post"]>[0][] = [];
	private readonly output: CodemodeOutputItem[] = [];
	private outputChars = 0;
	private readonly calls: CodemodeCall[] = [];
	private readonly pending = new Map<number, PendingCall>();
	private readonly seenIds = new Set<number>();
	private timer: ReturnType<typeof setTimeout> | undefined;
	private readonly onAbort = () => this.abort(this.setup.signal?.reason);

	constructor(private readonly setup: ExecutionSetup) {
		this.result = new Promise((resolve) => {
			this.resolve = resolve;
		});
	}

	begin(): void {
		const { signal, timeoutMs } = this.setup;
		if (signal?.aborted) {
			this.abort(signal.reason);
			return;
		}
		signal?.addEventListener("abort", this.onAbort, { once: true });
		if (Number.isFinite(timeoutMs)) {
			this.timer = setTimeout(
				() => this.fail({ kind: "timeout", message: `Execution timed out after ${timeoutMs} ms` }),
				Math.max(0, timeoutMs),
			);
		}
		try {
			const channel = this.setup.launcher(this.setup.start, {
				message: (message) => this.onMessage(message),
				failure: (message) => this.fail({ kind: "sandbox", message }),
			});
			this.channel = channel;
			if (this.settled) channel.stop();
			else for (const reply of this.queuedReplies.splice(0)) channel.post(reply);
		} catch (error) {
			this.fail({ kind: "sandbox", message: errorMessage(error) });
		}
	}

	/** Ends the run as `aborted`; the reason's message when it is an Error. */
	abort(reason?: unknown, fallback = "Execution aborted"): void {
		this.fail({ kind: "aborted", message: reason instanceof Error && reason.message ? reason.message : fallback });
	}

	private reply(message: Parameters<VmChannel["post"]>[0]): void {
		if (this.settled) return;
		if (this.channel) this.channel.post(message);
		else this.queuedReplies.push(message);
	}

	private onMessage(raw: unknown): void {
		if (this.settled) return;
		if (!raw || typeof raw !== "object") {
			this.bridgeBroken();
			return;
		}
		const message = raw as Record<string, unknown>;
		switch (message.type) {
			case "call":
				this.onCall(message);
				return;
			case "output":
				this.onOutput(message.item);
				return;
			case "done":
				this.onDone(message);
				return;
			case "crash":
				this.fail({
					kind: "sandbox",
					message: typeof message.message === "string" ? message.message : BRIDGE_BROKEN,
				});
				return;
			default:
				this.bridgeBroken();
				return;
		}
	}

	private onCall(message: Record<string, unknown>): void {
		const { id, target, name, args } = message;
		if (typeof id !== "number" || this.seenIds.has(id) || typeof name !== "string") {
			this.bridgeBroken();
			return;
		}
		if ((target !== "tool" && target !== "global") || (args !== undefined && typeof args !== "string")) {
			this.bridgeBroken();
			return;
		}
		this.seenIds.add(id);
		let input: unknown;
		try {
			input = args === undefined ? undefined : JSON.parse(args);
		} catch {
			this.bridgeBroken();
			return;
		}
		const tool = (target === "tool" ? this.setup.tools : this.setup.globals).get(name);
		if (!tool) {
			const label = target === "tool" ? "tool" : "global";
			this.reply({ type: "result", id, ok: false, payload: `Unknown ${label} "${name}"` });
			return;
		}
		const call: PendingCall = { controller: new AbortController(), startedAt: performance.now() };
		if (target === "tool") {
			call.record = { name, status: "cancelled", durationMs: 0 };
			this.calls.push(call.record);
		}
		this.pending.set(id, call);
		const signal = call.controller.signal;
		Promise.resolve()
			.then(() => tool.execute(input, { signal }))
			.then(
				(value) => {
					const payload = value === undefined ? undefined : JSON.stringify(value);
					this.finishCall(id, "ok");
					this.reply({ type: "result", id, ok: true, ...(payload === undefined ? {} : { payload }) });
				},
				(error: unknown) => {
					this.finishCall(id, "error");
					this.reply({ type: "result", id, ok: false, payload: errorMessage(error) });
				},
			);
	}

	private finishCall(id: number, status: "ok" | "error"): void {
		const call = this.pending.get(id);
		if (!call || this.settled) return;
		this.pending.delete(id);
		if (call.record) {
			call.record.status = status;
			call.record.durationMs = performance.now() - call.startedAt;
		}
	}

	private onOutput(raw: unknown): void {
		if (!raw || typeof raw !== "object") {
			this.bridgeBroken();
			return;
		}
		const item = raw as Record<string, unknown>;
		let parsed: CodemodeOutputItem;
		if (item.type === "text" && typeof item.text === "string") {
			parsed =
				item.console === true
					? { type: "text", text: item.text, console: true }
					: { type: "text", text: item.text };
		} else if (item.type === "image" && typeof item.data === "string" && typeof item.mimeType === "string") {
			parsed = { type: "image", data: item.data, mimeType: item.mimeType };
		} else {
			this.bridgeBroken();
			return;
		}
		const size = parsed.type === "text" ? parsed.text.length : parsed.data.length;
		if (this.output.length + 1 > MAX_OUTPUT_ITEMS || this.outputChars + size > MAX_OUTPUT_CHARS) {
			const message = `Script output exceeded the limit of ${MAX_OUTPUT_ITEMS} items or ${MAX_OUTPUT_CHARS} characters; print a summary instead, or write large data with a tool`;
			this.fail({ kind: "script", name: "RangeError", message, stack: `RangeError: ${message}` });
			return;
		}
		this.outputChars += size;
		this.output.push(parsed);
	}

	private onDone(message: Record<string, unknown>): void {
		if (message.ok === true) {
			const { value, writes } = message;
			if ((value !== undefined && typeof value !== "string") || typeof writes !== "string") {
				this.bridgeBroken();
				return;
			}
			let parsedValue: unknown;
			const set: Record<string, unknown> = {};
			const deleted: string[] = [];
			try {
				parsedValue = value === undefined ? undefined : JSON.parse(value);
				for (const entry of JSON.parse(writes) as unknown[]) {
					if (!Array.isArray(entry) || typeof entry[0] !== "string") {
						this.bridgeBroken();
						return;
					}
					if (entry.length === 1) deleted.push(entry[0]);
					else if (typeof entry[1] === "string") set[entry[0]] = JSON.parse(entry[1]);
					else {
						this.bridgeBroken();
						return;
					}
				}
			} catch {
				this.bridgeBroken();
				return;
			}
			this.finish({
				ok: true,
				value: parsedValue,
				output: this.output,
				calls: this.calls,
				storeWrites: { set, delete: deleted },
			});
			return;
		}
		if (message.ok !== false || typeof message.error !== "string") {
			this.bridgeBroken();
			return;
		}
		let error: Record<string, unknown>;
		try {
			error = JSON.parse(message.error) as Record<string, unknown>;
		} catch {
			this.bridgeBroken();
			return;
		}
		if (!error || typeof error.message !== "string") {
			this.bridgeBroken();
			return;
		}
		this.fail({
			kind: "script",
			...(typeof error.name === "string" ? { name: error.name } : {}),
			message: error.message,
			...(typeof error.stack === "string" ? { stack: error.stack } : {}),
		});
	}

	private bridgeBroken(): void {
		this.fail({ kind: "sandbox", message: BRIDGE_BROKEN });
	}

	private fail(error: CodemodeError): void {
		this.finish({ ok: false, error, output: this.output, calls: this.calls });
	}

	private finish(result: CodemodeResult): void {
		if (this.settled) return;
		this.settled = true;
		if (this.timer !== undefined) clearTimeout(this.timer);
		this.setup.signal?.removeEventListener("abort", this.onAbort);
		for (const call of this.pending.values()) {
			if (call.record) call.record.durationMs = performance.now() - call.startedAt;
			call.controller.abort(new Error("The script finished before this call completed"));
		}
		this.pending.clear();
		this.channel?.stop();
		this.resolve(result);
	}
}

export function errorMessage(error: unknown): string {
	if (error instanceof Error) return error.message;
	return String(error);
}
