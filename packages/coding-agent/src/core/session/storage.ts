import { randomBytes } from "node:crypto";
import * as nodeFs from "node:fs";
import { basename, dirname, join } from "node:path";
import type { FsyncPolicy } from "./types.js";

/** The file operations the writer needs; replaceable so hosts and tests can observe or fail writes. */
export interface SessionFileSystem {
	openSync(path: string, flags: string, mode?: number): number;
	writeSync(fd: number, data: string): number;
	fsyncSync(fd: number): void;
	closeSync(fd: number): void;
	renameSync(from: string, to: string): void;
	mkdirSync(path: string, options: { recursive: true }): unknown;
	unlinkSync(path: string): void;
}

export const nodeSessionFileSystem: SessionFileSystem = {
	openSync: (path, flags, mode) => nodeFs.openSync(path, flags, mode),
	writeSync: (fd, data) => nodeFs.writeSync(fd, data),
	fsyncSync: (fd) => nodeFs.fsyncSync(fd),
	closeSync: (fd) => nodeFs.closeSync(fd),
	renameSync: (from, to) => nodeFs.renameSync(from, to),
	mkdirSync: (path, options) => nodeFs.mkdirSync(path, options),
	unlinkSync: (path) => nodeFs.unlinkSync(path),
};

/** Writes a string with one `write` call and insists that all of it went out. */
function writeWhole(fs: SessionFileSystem, fd: number, data: string): void {
	const expected = Buffer.byteLength(data);
	const written = fs.writeSync(fd, data);
	if (written !== expected) throw new Error(`Short write to session file (${written} of ${expected} bytes)`);
}

/**
 * The append-only writer of one session file. Lines are written whole through a descriptor opened in
 * append mode, so concurrent appenders cannot interleave inside a line on local filesystems.
 */
export class SessionFileWriter {
	private fd: number | undefined;
	/** Bytes this writer expects the file to hold; growth beyond it means someone else appended. */
	expectedSize = 0;

	constructor(
		readonly path: string,
		private readonly fsync: FsyncPolicy,
		private readonly fs: SessionFileSystem,
	) {}

	/** First flush: exclusive create (never overwrite), all lines through one descriptor, then sync. */
	createExclusive(lines: readonly string[]): void {
		this.fs.mkdirSync(dirname(this.path), { recursive: true });
		let fd: number;
		try {
			fd = this.fs.openSync(this.path, "wx", 0o644);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "EEXIST") {
				throw new Error(`Session file already exists: ${this.path}`, { cause: error });
			}
			throw error;
		}
		try {
			let size = 0;
			for (const line of lines) {
				writeWhole(this.fs, fd, line);
				size += Buffer.byteLength(line);
			}
			if (this.fsync !== "off") this.fs.fsyncSync(fd);
			this.expectedSize = size;
		} catch (error) {
			this.fs.closeSync(fd);
			this.fs.unlinkSync(this.path);
			throw error;
		}
		this.fs.closeSync(fd);
	}

	/** Continues an existing file of `size` bytes. */
	attach(size: number): void {
		this.expectedSize = size;
	}

	append(line: string, important: boolean): void {
		const fd = this.descriptor();
		writeWhole(this.fs, fd, line);
		this.expectedSize += Buffer.byteLength(line);
		if (this.fsync === "always" || (this.fsync === "important" && important)) this.fs.fsyncSync(fd);
	}

	close(): void {
		if (this.fd === undefined) return;
		const fd = this.fd;
		this.fd = undefined;
		this.fs.closeSync(fd);
	}

	private descriptor(): number {
		this.fd ??= this.fs.openSync(this.path, "a");
		return this.fd;
	}
}

/**
 * Replaces a file atomically: temp file in the same directory, fsync, rename. A crash leaves either the
 * old or the new content, never a truncated file.
 */
export function writeFileAtomic(path: string, content: string, fs: SessionFileSystem = nodeSessionFileSystem): void {
	fs.mkdirSync(dirname(path), { recursive: true });
	const temp = join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`);
	const fd = fs.openSync(temp, "wx", 0o644);
	try {
		writeWhole(fs, fd, content);
		fs.fsyncSync(fd);
	} catch (error) {
		fs.closeSync(fd);
		fs.unlinkSync(temp);
		throw error;
	}
	fs.closeSync(fd);
	try {
		fs.renameSync(temp, path);
	} catch (error) {
		fs.unlinkSync(temp);
		throw error;
	}
}
