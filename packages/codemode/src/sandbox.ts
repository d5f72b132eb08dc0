import { toCodemodeIdentifier } from "./declarations/identifier.js";
import { Execution } from "./host/execution.js";
import { expandModels, validateGlobals } from "./host/globals.js";
import { createWorkerLauncher, defaultWorkerUrl } from "./host/worker-launcher.js";
import { DEFAULT_MAX_STACK_BYTES, DEFAULT_TIMEOUT_MS } from "./limits.js";
import type { VmLauncher } from "./protocol.js";
import type { CodemodeExecuteOptions, CodemodeResult, CodemodeSandboxOptions, CodemodeTool } from "./types.js";

/**
 * Holds the tool table and defaults; every `execute()` snapshots the table and runs the script in
 * a new worker and QuickJS VM whose only capability is calling those tools and globals.
 */
export class CodemodeSandbox {
	private readonly toolTable = new Map<string, CodemodeTool>();
	private readonly globalList: CodemodeTool[];
	private readonly options: CodemodeSandboxOptions;
	private readonly launcher: VmLauncher;
	private readonly running = new Set<Execution>();
	private closed = false;

	constructor(options: CodemodeSandboxOptions = {}, launcher?: VmLauncher) {
		this.options = options;
		this.globalList = expandModels(options.globals ?? [], options.models);
		validateGlobals(this.globalList);
		for (const tool of options.tools ?? []) this.registerTool(tool);
		this.launcher =
			launcher ??
			createWorkerLauncher({
				workerUrl: options.workerUrl ?? defaultWorkerUrl(),
				...(options.acquireWorker ? { acquireWorker: options.acquireWorker } : {}),
				...(options.onWorkerStarted ? { onWorkerStarted: options.onWorkerStarted } : {}),
			});
	}

	get tools(): CodemodeTool[] {
		return [...this.toolTable.values()];
	}

	get globals(): CodemodeTool[] {
		return [...this.globalList];
	}

	registerTool(tool: CodemodeTool): void {
		if (this.toolTable.has(tool.name)) throw new Error(`Tool "${tool.name}" is already registered`);
		this.toolTable.set(tool.name, tool);
	}

	unregisterTool(name: string): boolean {
		return this.toolTable.delete(name);
	}

	async execute(code: string, options: CodemodeExecuteOptions = {}): Promise<CodemodeResult> {
		if (this.closed) throw new Error("Sandbox is closed");
		const tools = new Map(this.toolTable);
		const store: Record<string, string> = {};
		for (const [key, value] of Object.entries(options.store ?? {})) {
			const json = value === undefined ? undefined : JSON.stringify(value);
			if (json !== undefined) store[key] = json;
		}
		const memoryLimitBytes = this.options.memoryLimitBytes;
		const execution = new Execution({
			start: {
				code,
				tools: [...tools.values()].map((t) => ({
					name: t.name,
					jsName: toCodemodeIdentifier(t.name),
					description: t.description ?? "",
				})),
				globals: this.globalList.map((g) => ({ name: g.name, spread: g.spread === true })),
				...(memoryLimitBytes === undefined ? {} : { memoryLimitBytes }),
				maxStackBytes: this.options.maxStackBytes ?? DEFAULT_MAX_STACK_BYTES,
				store,
			},
			tools,
			globals: new Map(this.globalList.map((g) => [g.name, g])),
			launcher: this.launcher,
			timeoutMs: options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
			...(options.signal ? { signal: options.signal } : {}),
		});
		this.running.add(execution);
		execution.begin();
		try {
			return await execution.result;
		} finally {
			this.running.delete(execution);
		}
	}

	/** Aborts in-flight runs (each resolves `aborted`/`Sandbox closed`); never waits for workers. */
	async close(): Promise<void> {
		this.closed = true;
		const runs = [...this.running];
		for (const run of runs) run.abort(undefined, "Sandbox closed");
		await Promise.all(runs.map((run) => run.result));
	}
}
