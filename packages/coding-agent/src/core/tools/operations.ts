import { constants, existsSync, readdirSync, statSync } from "node:fs";
import { access, mkdir, readFile } from "node:fs/promises";
import { writeFileAtomic } from "../fs/atomic-write.js";

/*
 * Pluggable filesystem/process backends (docs/design/tools.md#backends). Paths passed in are host-resolved
 * absolute paths; a remote backend translates them for the machine it talks to.
 */

/** File access the read tool uses; replace it to read files somewhere other than the local disk. */
export interface ReadOperations {
	readFile(absolutePath: string): Promise<Buffer>;
	/** Throws when the file is not readable. */
	access(absolutePath: string): Promise<void>;
	/** Absent → every file is read as text. */
	detectImageMimeType?(absolutePath: string): Promise<string | null | undefined>;
	/** Enables bounded-memory reads of large files. */
	createReadStream?(absolutePath: string, options: { signal?: AbortSignal }): AsyncIterable<Uint8Array>;
}

/** File access the write tool uses; replace it to write files somewhere other than the local disk. */
export interface WriteOperations {
	writeFile(absolutePath: string, content: string): Promise<void>;
	/** Recursive. */
	mkdir(directory: string): Promise<void>;
}

/** File access the edit tool uses; replace it to edit files somewhere other than the local disk. */
export interface EditOperations {
	readFile(absolutePath: string): Promise<Buffer>;
	writeFile(absolutePath: string, content: string): Promise<void>;
	/** Throws unless the file is readable and writable. */
	access(absolutePath: string): Promise<void>;
}

export interface BashExecOptions {
	onData(data: Buffer): void;
	signal?: AbortSignal;
	/** Seconds. */
	timeout?: number;
	env?: NodeJS.ProcessEnv;
}

/**
 * Contract for custom backends: stream all output through `onData`; on abort throw
 * `Error("aborted")`, on timeout `Error("timeout:<seconds>")`; signal terminations are
 * `128 + signal number`; a `null` exit code counts as a failed command.
 */
export interface BashOperations {
	exec(command: string, cwd: string, options: BashExecOptions): Promise<{ exitCode: number | null }>;
}

/** How the PowerShell tool runs commands; the same shape as the bash tool's operations. */
export type PowerShellOperations = BashOperations;

/** File access the ls tool uses; replace it to list directories somewhere other than the local disk. */
export interface LsOperations {
	exists(absolutePath: string): boolean | Promise<boolean>;
	stat(absolutePath: string): { isDirectory(): boolean } | Promise<{ isDirectory(): boolean }>;
	readdir(absolutePath: string): string[] | Promise<string[]>;
}

/** File access the grep tool uses (the search itself always runs locally). */
export interface GrepOperations {
	isDirectory(absolutePath: string): boolean | Promise<boolean>;
	/** @deprecated ignored: the search always runs locally. */
	readFile?(absolutePath: string): string | Promise<string>;
}

/** File access the find tool uses; its `glob` replaces the fd search, for example to search a remote machine. */
export interface FindOperations {
	exists(absolutePath: string): boolean | Promise<boolean>;
	glob(pattern: string, cwd: string, options: { ignore: string[]; limit: number }): string[] | Promise<string[]>;
}

/** Local writes replace files atomically: a crash or a full disk never leaves a half-written file. */
export const localWriteOperations: WriteOperations = {
	writeFile: (path, content) => writeFileAtomic(path, content),
	mkdir: async (directory) => {
		await mkdir(directory, { recursive: true });
	},
};

export const localEditOperations: EditOperations = {
	readFile: (path) => readFile(path),
	writeFile: (path, content) => writeFileAtomic(path, content),
	access: (path) => access(path, constants.R_OK | constants.W_OK),
};

export const localLsOperations: LsOperations = {
	exists: (path) => existsSync(path),
	stat: (path) => statSync(path),
	readdir: (path) => readdirSync(path),
};

export const localGrepOperations: GrepOperations = {
	isDirectory: (path) => statSync(path).isDirectory(),
};
