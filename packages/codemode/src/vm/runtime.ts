import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten";
import { JOBS_PER_INTERRUPT_POLL } from "../limits.js";
import type { HostToVmMessage, VmStartData, VmToHostMessage } from "../protocol.js";
import { PRELUDE_FILE_NAME, PRELUDE_SOURCE } from "./prelude.js";

export const SCRIPT_FILE_NAME = "codemode.js";
export const NEVER_SETTLES_MESSAGE =
	"The script awaits a promise that can never settle: no tool call is pending and timers do not exist";

/** Runs one script in a fresh QuickJS runtime; the worker entry wires it to its message port. */
export class VmRuntime {
	private finished = false;
	private readonly outstanding = new Set<number>();
	private readonly runtime: QuickJSRuntime;
	private readonly vm: QuickJSContext;
	private prelude: QuickJSHandle | undefined;
	constructor(
		runtime: QuickJSRuntime,
		private readonly start: VmStartData,
		private readonly interruptFlag: Int32Array,
		private readonly post: (message: VmToHostMessage) => void,
	) {
		this.runtime = runtime;
		if (start.memoryLimitBytes !== undefined) runtime.setMemoryLimit(start.memoryLimitBytes);
		runtime.setMaxStackSize(start.maxStackBytes);
		runtime.setInterruptHandler(() => this.stopped());
		this.vm = runtime.newContext();
	}

	/** Evaluates the prelude and the script, then runs jobs until the script waits on the host. */
	begin(): void {
		const vm = this.vm;
		const preludeFactory = vm.evalCode(PRELUDE_SOURCE, PRELUDE_FILE_NAME);
		if (preludeFactory.error) {
			this.crash(`prelude failed: ${this.describe(preludeFactory.error)}`);
			return;
		}
		const bridge = vm.newFunction("bridge", (...args) => this.onBridge(args));
		const config = vm.newString(
			JSON.stringify({ tools: this.start.tools, globals: this.start.globals, store: this.start.store }),
		);
		const prelude = vm.callFunction(preludeFactory.value, vm.undefined, bridge, config);
		if (prelude.error) {
			this.crash(`prelude failed: ${this.describe(prelude.error)}`);
			return;
		}
		this.prelude = prelude.value;

		// The prefix shares line 1 with the script so reported line numbers match the source.
		const compiled = vm.evalCode(`(async (tools, console) => {${this.start.code}\n})`, SCRIPT_FILE_NAME);
		const entry = compiled.error ? "fail" : "run";
		const argument = compiled.error ?? compiled.value;
		const started = vm.callFunction(vm.getProp(this.prelude, entry), vm.undefined, argument);
		if (started.error && !this.finished) {
			this.crash(this.describe(started.error));
			return;
		}
		this.drain();
	}

	receive(message: HostToVmMessage): void {
		if (this.finished || !this.prelude) return;
		this.outstanding.delete(message.id);
		const vm = this.vm;
		const payload = message.payload === undefined ? vm.undefined : vm.newString(message.payload);
		const settled = vm.callFunction(
			vm.getProp(this.prelude, "settle"),
			vm.undefined,
			vm.newNumber(message.id),
			message.ok ? vm.true : vm.false,
			payload,
		);
		if (settled.error && !this.finished) {
			this.crash(this.describe(settled.error));
			return;
		}
		this.drain();
	}

	private stopped(): boolean {
		return this.finished || Atomics.load(this.interruptFlag, 0) !== 0;
	}

	private drain(): void {
		while (!this.stopped() && this.runtime.hasPendingJob()) {
			const ran = this.runtime.executePendingJobs(JOBS_PER_INTERRUPT_POLL);
			if (ran.error) {
				if (!this.finished) this.crash(this.describe(ran.error));
				return;
			}
		}
		if (!this.stopped() && this.outstanding.size === 0) {
			this.finished = true;
			const error = { name: "Error", message: NEVER_SETTLES_MESSAGE, stack: `Error: ${NEVER_SETTLES_MESSAGE}` };
			this.post({ type: "done", ok: false, error: JSON.stringify(error) });
		}
	}

	private onBridge(args: QuickJSHandle[]): void {
		if (this.finished) return;
		const values = args.map((h) => this.primitive(h));
		const [kind] = values;
		if (kind === "call") {
			const [, id, target, name, callArgs] = values;
			this.outstanding.add(id as number);
			this.post({
				type: "call",
				id: id as number,
				target: target as "tool" | "global",
				name: name as string,
				...(callArgs === undefined ? {} : { args: callArgs as string }),
			});
		} else if (kind === "output") {
			const [, type, a, b] = values;
			if (type === "image")
				this.post({ type: "output", item: { type: "image", data: a as string, mimeType: b as string } });
			else
				this.post({
					type: "output",
					item:
						b === true ? { type: "text", text: a as string, console: true } : { type: "text", text: a as string },
				});
		} else if (kind === "done") {
			this.finished = true;
			const [, ok, payload, writes] = values;
			if (ok === true) {
				this.post({
					type: "done",
					ok: true,
					...(payload === undefined ? {} : { value: payload as string }),
					writes: writes as string,
				});
			} else {
				this.post({ type: "done", ok: false, error: payload as string });
			}
		}
	}

	/** Only primitives cross the bridge; anything else is passed on as-is for the host to reject. */
	private primitive(handle: QuickJSHandle): unknown {
		const type = this.vm.typeof(handle);
		if (type === "string") return this.vm.getString(handle);
		if (type === "number") return this.vm.getNumber(handle);
		if (type === "boolean" || type === "undefined") return this.vm.dump(handle);
		return { unsupported: type };
	}

	private describe(handle: QuickJSHandle): string {
		try {
			const value = this.vm.dump(handle) as { name?: unknown; message?: unknown } | unknown;
			if (value && typeof value === "object" && "message" in value) {
				const { name, message } = value as { name?: unknown; message?: unknown };
				return name ? `${String(name)}: ${String(message)}` : String(message);
			}
			return String(value);
		} catch {
			return "unreadable engine error";
		}
	}

	private crash(message: string): void {
		this.finished = true;
		this.post({ type: "crash", message });
	}
}
