/** A JSON Schema used only to render declarations; it is never validated. */
export type JsonSchema = { [key: string]: unknown } | boolean;

/** What a host tool's `execute` receives besides its arguments: the run's abort signal. */
export interface CodemodeCallContext {
	signal: AbortSignal;
}

/** A host function a script can call: `tools.<name>(args)` or, as a global, `<name>(...)`. */
export interface CodemodeTool {
	/** Tools: any string. Globals: an identifier or `ns.member`. */
	name: string;
	/** Doc comment in declarations; the `ALL_TOOLS` text for tools. */
	description?: string;
	inputSchema?: JsonSchema;
	outputSchema?: JsonSchema;
	/** Globals only: `execute()` receives the whole argument array instead of the first argument. */
	spread?: boolean;
	/** Globals only: a TypeScript signature such as `(a: string): Promise<X>` replacing schema rendering. */
	signature?: string;
	execute(args: unknown, ctx: CodemodeCallContext): unknown | Promise<unknown>;
}

/** Options of a sandbox: the host tools and globals scripts may call, limits and defaults for each run. */
export interface CodemodeSandboxOptions {
	tools?: CodemodeTool[];
	globals?: CodemodeTool[];
	/** Wall-clock deadline per run; default 300000, `Infinity` disables it. */
	timeoutMs?: number;
	/** QuickJS heap limit; default none. */
	memoryLimitBytes?: number;
	/** QuickJS stack guard; default 512 KiB. */
	maxStackBytes?: number;
	/** Expanded to spread globals `models.<member>`. */
	models?: Record<string, CodemodeTool["execute"]>;
	/** Worker entry for bundlers: a file importing `@tau/codemode/worker`. */
	workerUrl?: string | URL;
	/** Runs right before each worker is constructed; the returned release runs once when that worker exits. */
	acquireWorker?(): () => void;
	/** Receives a promise that resolves when the run's worker has actually exited. */
	onWorkerStarted?(exited: Promise<void>): void;
}

/** Options of one script run: abort signal, deadline and the key-value store the script sees. */
export interface CodemodeExecuteOptions {
	signal?: AbortSignal;
	timeoutMs?: number;
	store?: Readonly<Record<string, unknown>>;
}

/** One piece of script output: printed text (console output marked) or an image. */
export type CodemodeOutputItem =
	| { type: "text"; text: string; console?: true }
	| { type: "image"; data: string; mimeType: string };

/** One host tool call a script made: the tool name, how it ended and how long it took. */
export interface CodemodeCall {
	name: string;
	status: "ok" | "error" | "cancelled";
	durationMs: number;
}

/** Why a script run failed: a script exception, the deadline, an abort or a sandbox failure. */
export interface CodemodeError {
	kind: "script" | "timeout" | "aborted" | "sandbox";
	name?: string;
	message: string;
	stack?: string;
}

/** The store changes a script made: keys set and keys deleted, for the host to persist. */
export interface CodemodeStoreWrites {
	set: Record<string, unknown>;
	delete: string[];
}

/** The outcome of a script run: its value or error, with the output, the tool calls made and the store writes. */
export type CodemodeResult =
	| {
			ok: true;
			value: unknown;
			output: CodemodeOutputItem[];
			calls: CodemodeCall[];
			storeWrites: CodemodeStoreWrites;
	  }
	| { ok: false; error: CodemodeError; output: CodemodeOutputItem[]; calls: CodemodeCall[] };
