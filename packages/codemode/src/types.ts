/** A JSON Schema used only to render declarations; it is never validated. */
export type JsonSchema = { [key: string]: unknown } | boolean;

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

export interface CodemodeExecuteOptions {
	signal?: AbortSignal;
	timeoutMs?: number;
	store?: Readonly<Record<string, unknown>>;
}

export type CodemodeOutputItem =
	| { type: "text"; text: string; console?: true }
	| { type: "image"; data: string; mimeType: string };

export interface CodemodeCall {
	name: string;
	status: "ok" | "error" | "cancelled";
	durationMs: number;
}

export interface CodemodeError {
	kind: "script" | "timeout" | "aborted" | "sandbox";
	name?: string;
	message: string;
	stack?: string;
}

export interface CodemodeStoreWrites {
	set: Record<string, unknown>;
	delete: string[];
}

export type CodemodeResult =
	| {
			ok: true;
			value: unknown;
			output: CodemodeOutputItem[];
			calls: CodemodeCall[];
			storeWrites: CodemodeStoreWrites;
	  }
	| { ok: false; error: CodemodeError; output: CodemodeOutputItem[]; calls: CodemodeCall[] };
