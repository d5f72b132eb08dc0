import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { FauxModelDefinition, FauxProviderHandle } from "@tau/ai";
import type { AgentSessionRuntime, ExtensionFactory } from "@tau/coding-agent";
import type { DefaultResourceLoaderOptions } from "../../src/core/resources/index.js";
import { runRpcMode } from "../../src/modes/rpc/index.js";
import { RawWriter } from "../../src/modes/shared/index.js";
import { createFauxRuntime } from "../support/faux-runtime.js";

export type WireRecord = { type: string; [key: string]: any };

export function tempDir(prefix = "tau-rpc-"): string {
	return mkdtempSync(join(tmpdir(), prefix));
}

export interface RpcHarnessOptions {
	models?: FauxModelDefinition[];
	loader?: Partial<DefaultResourceLoaderOptions>;
	/** One inline extension, loaded after `loader.extensionFactories`. */
	extension?: ExtensionFactory;
	settings?: Record<string, unknown>;
	persisted?: boolean;
	/** No provider is registered and no model given: the session starts without a model. */
	noModel?: boolean;
	/** Install the SIGTERM/SIGHUP handlers (tests emit the signal on `process`). */
	handleSignals?: boolean;
}

/**
 * `runRpcMode` in-process over a real AgentSessionRuntime on the faux provider, with in-memory
 * stdin/stdout. The client side speaks raw JSONL so every assertion is about wire records.
 */
export class RpcHarness {
	readonly records: WireRecord[] = [];
	readonly rawLines: string[] = [];
	stderr = "";
	exitCode: number | undefined;
	readonly input = new PassThrough();
	private readonly waiters: { predicate: (record: WireRecord) => boolean; resolve: (record: WireRecord) => void }[] =
		[];
	private nextId = 1;
	/** Resolves with the code runRpcMode finished with. */
	exited!: Promise<number>;

	private constructor(
		readonly runtime: AgentSessionRuntime,
		readonly faux: FauxProviderHandle,
		readonly cwd: string,
		readonly writer: RawWriter,
	) {}

	static async start(options: RpcHarnessOptions = {}, writer?: RawWriter): Promise<RpcHarness> {
		const cwd = tempDir();
		const agentDir = join(tempDir("tau-rpc-agent-"), "agent");
		mkdirSync(agentDir, { recursive: true });
		const { runtime, faux } = await createFauxRuntime({ ...options, cwd, agentDir });
		const lines: string[] = [];
		let buffer = "";
		let harness: RpcHarness | undefined;
		const output =
			writer ??
			new RawWriter({
				write: (chunk, callback) => {
					buffer += chunk;
					let newline = buffer.indexOf("\n");
					while (newline >= 0) {
						const line = buffer.slice(0, newline);
						buffer = buffer.slice(newline + 1);
						if (harness) harness.receive(line);
						else lines.push(line);
						newline = buffer.indexOf("\n");
					}
					callback();
				},
			});
		harness = new RpcHarness(runtime, faux, cwd, output);
		for (const line of lines) harness.receive(line);
		const h = harness;
		h.exited = runRpcMode(runtime, {
			input: h.input,
			writer: output,
			stderr: (text) => {
				h.stderr += text;
			},
			handleSignals: options.handleSignals ?? false,
			exit: (code) => {
				h.exitCode = code;
			},
		});
		return h;
	}

	receive(line: string): void {
		this.rawLines.push(line);
		const record = JSON.parse(line) as WireRecord;
		this.records.push(record);
		for (const waiter of [...this.waiters]) {
			if (waiter.predicate(record)) {
				this.waiters.splice(this.waiters.indexOf(waiter), 1);
				waiter.resolve(record);
			}
		}
	}

	/** Resolves with the first record (already received or future) matching `predicate`. */
	waitFor(predicate: (record: WireRecord) => boolean, fromIndex = 0): Promise<WireRecord> {
		const existing = this.records.slice(fromIndex).find(predicate);
		if (existing) return Promise.resolve(existing);
		return new Promise((resolve) => this.waiters.push({ predicate, resolve }));
	}

	/** Resolves once `count` records match (already received or future). */
	async waitForCount(predicate: (record: WireRecord) => boolean, count: number): Promise<WireRecord[]> {
		while (this.records.filter(predicate).length < count) {
			const seen = this.records.length;
			await this.waitFor(() => true, seen);
		}
		return this.records.filter(predicate);
	}

	writeLine(line: string): void {
		this.input.write(`${line}\n`);
	}

	/** Sends a command with a fresh id and resolves with its response record. */
	async send(command: Record<string, unknown>): Promise<WireRecord> {
		const id = command.id ?? `c${this.nextId++}`;
		const response = this.waitFor((record) => record.type === "response" && record.id === id);
		this.writeLine(JSON.stringify({ id, ...command }));
		return response;
	}

	/** Sends a command and returns its `data`; fails the test on `success:false`. */
	async data<T = any>(command: Record<string, unknown>): Promise<T> {
		const response = await this.send(command);
		if (response.success !== true) throw new Error(`command failed: ${JSON.stringify(response)}`);
		return response.data as T;
	}

	async close(): Promise<number> {
		this.input.end();
		return this.exited;
	}

	typesSince(index: number): string[] {
		return this.records.slice(index).map((record) => record.type);
	}
}

export { gate } from "../support/gate.js";
