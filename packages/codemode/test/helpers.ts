import { type CodemodeResult, CodemodeSandbox, type CodemodeSandboxOptions, type CodemodeTool } from "@tau/codemode";
import { afterEach } from "vitest";

const sandboxes: CodemodeSandbox[] = [];
afterEach(async () => {
	await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

/** A sandbox closed after the test; runs get a generous deadline so a hang fails as `timeout`. */
export function sandbox(options: CodemodeSandboxOptions = {}): CodemodeSandbox {
	const s = new CodemodeSandbox({ timeoutMs: 15_000, ...options });
	sandboxes.push(s);
	return s;
}

export function tool(name: string, execute: CodemodeTool["execute"], extra: Partial<CodemodeTool> = {}): CodemodeTool {
	return { name, execute, ...extra };
}

/** A tool whose calls report that they started and then wait until the test resolves `gate`. */
export function gatedTool<T>(name: string) {
	const gate = deferred<T>();
	const started = deferred();
	const gated = tool(name, () => {
		started.resolve();
		return gate.promise;
	});
	return { tool: gated, started, gate };
}

export async function run(code: string, options: CodemodeSandboxOptions = {}): Promise<CodemodeResult> {
	return sandbox(options).execute(code);
}

export function okValue(result: CodemodeResult): unknown {
	if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
	return result.value;
}

export function failure(result: CodemodeResult) {
	if (result.ok) throw new Error(`expected failure, got ${JSON.stringify(result.value)}`);
	return result.error;
}

/** A promise with its resolver, for tools that finish when the test says so. */
export function deferred<T = void>() {
	let resolve!: (value: T) => void;
	const promise = new Promise<T>((r) => {
		resolve = r;
	});
	return { promise, resolve };
}
