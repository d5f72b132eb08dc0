/**
 * Worker entry: one worker runs exactly one script. QuickJS is loaded here, so hosts that never
 * execute a script never load the engine.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { HostToVmMessage, VmStartData, VmToHostMessage } from "./protocol.js";
import { VmRuntime } from "./vm/runtime.js";

/**
 * @internal The data the host's worker launcher hands to this worker entry; only codemode's own launcher creates it.
 */
export interface CodemodeWorkerData {
	start: VmStartData;
	interrupt: SharedArrayBuffer;
}

/** Room above the heap limit for the engine's own startup memory. */
const HEAP_SLACK_BYTES = 16 * 1024 * 1024;
const WASM_PAGE_BYTES = 65_536;

/**
 * This QuickJS build cannot measure allocation sizes (no malloc_usable_size), so its own limit
 * misses most allocations; the worker's wasm memory growth is capped instead: a refused grow makes
 * malloc fail, which QuickJS reports as a catchable "out of memory" error. One engine per worker.
 */
interface WasmMemory {
	buffer: ArrayBuffer;
	grow(deltaPages: number): number;
}

function capLinearMemory(maxBytes: number): void {
	const memoryClass = (globalThis as unknown as { WebAssembly: { Memory: { prototype: WasmMemory } } }).WebAssembly
		.Memory;
	const grow = memoryClass.prototype.grow;
	memoryClass.prototype.grow = function (this: WasmMemory, deltaPages: number) {
		if (this.buffer.byteLength + deltaPages * WASM_PAGE_BYTES > maxBytes) {
			throw new RangeError("codemode memory limit reached");
		}
		return grow.call(this, deltaPages);
	};
}

async function main(): Promise<void> {
	const port = parentPort;
	if (!port) return;
	const data = workerData as CodemodeWorkerData;
	const post = (message: VmToHostMessage) => port.postMessage(message);
	let runtime: VmRuntime;
	if (data.start.memoryLimitBytes !== undefined) capLinearMemory(data.start.memoryLimitBytes + HEAP_SLACK_BYTES);
	try {
		const { newQuickJSWASMModule, RELEASE_SYNC } = await import("quickjs-emscripten");
		const engine = await newQuickJSWASMModule(RELEASE_SYNC);
		runtime = new VmRuntime(engine.newRuntime(), data.start, new Int32Array(data.interrupt), post);
	} catch (error) {
		post({
			type: "crash",
			message: `QuickJS failed to load: ${error instanceof Error ? error.message : String(error)}`,
		});
		return;
	}
	port.on("message", (message: HostToVmMessage) => runtime.receive(message));
	runtime.begin();
}

void main();
