import type { AnyToolDefinition } from "../../core/extensions/index.js";
import {
	type BashOperations,
	createBashToolDefinition,
	createEditToolDefinition,
	createLsToolDefinition,
	createReadToolDefinition,
	createWriteToolDefinition,
	type EditOperations,
	type LsOperations,
	type ReadOperations,
	type WriteOperations,
} from "../../core/tools/index.js";
import { containerCliOrThrow, runContainerCli } from "./container-cli.js";

/** Runs a POSIX shell script in the container with arguments `$1…`, so paths are never spliced into code. */
function shellArgs(container: string, script: string, ...args: string[]): string[] {
	return ["exec", "-i", container, "sh", "-c", script, "sh", ...args];
}

/**
 * tau's file and shell tools with every operation running inside the container through `exec`
 * (docs/eval.md, "Backends"): the agent never touches the host's files.
 */
export function containerTools(cli: string, container: string, workdir: string): AnyToolDefinition[] {
	const readFile = (path: string) => containerCliOrThrow(cli, ["exec", container, "cat", "--", path]);
	const writeFile = async (path: string, content: string) => {
		await containerCliOrThrow(cli, shellArgs(container, 'cat > "$1"', path), content);
	};
	const test = async (script: string, path: string) => {
		const result = await runContainerCli(cli, shellArgs(container, script, path));
		return result.exitCode === 0;
	};
	const read: ReadOperations = {
		readFile,
		access: async (path) => {
			if (!(await test('test -r "$1"', path))) throw new Error(`ENOENT: cannot read ${path}`);
		},
	};
	const write: WriteOperations = {
		writeFile,
		mkdir: async (directory) => {
			await containerCliOrThrow(cli, ["exec", container, "mkdir", "-p", "--", directory]);
		},
	};
	const edit: EditOperations = {
		readFile,
		writeFile,
		access: async (path) => {
			if (!(await test('test -r "$1" && test -w "$1"', path))) throw new Error(`EACCES: cannot edit ${path}`);
		},
	};
	const ls: LsOperations = {
		exists: (path) => test('test -e "$1"', path),
		stat: async (path) => {
			const directory = await test('test -d "$1"', path);
			return { isDirectory: () => directory };
		},
		readdir: async (path) => {
			const listing = await containerCliOrThrow(cli, ["exec", container, "ls", "-A1", "--", path]);
			return listing
				.toString("utf8")
				.split("\n")
				.filter((name) => name !== "");
		},
	};
	const bash: BashOperations = {
		exec: async (command, cwd, options) => {
			const controller = new AbortController();
			let timedOut = false;
			const timer =
				options.timeout !== undefined && options.timeout > 0
					? setTimeout(() => {
							timedOut = true;
							controller.abort();
						}, options.timeout * 1000)
					: undefined;
			const onAbort = () => controller.abort();
			options.signal?.addEventListener("abort", onAbort, { once: true });
			try {
				const result = await runContainerCli(cli, ["exec", "-i", "-w", cwd, container, "sh", "-c", command], {
					signal: controller.signal,
					onData: options.onData,
				});
				return { exitCode: result.exitCode };
			} catch (error) {
				if (timedOut) throw new Error(`timeout:${options.timeout}`);
				if (options.signal?.aborted) throw new Error("aborted");
				throw error;
			} finally {
				if (timer) clearTimeout(timer);
				options.signal?.removeEventListener("abort", onAbort);
			}
		},
	};
	return [
		createReadToolDefinition(workdir, { operations: read }),
		createWriteToolDefinition(workdir, { operations: write }),
		createEditToolDefinition(workdir, { operations: edit }),
		createBashToolDefinition(workdir, { operations: bash }),
		createLsToolDefinition(workdir, { operations: ls }),
	] as unknown as AnyToolDefinition[];
}
