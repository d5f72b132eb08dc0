import * as nodeFs from "node:fs";
import { dirname } from "node:path";
import { type AtomicWriteFileSystem, nodeAtomicWriteFileSystem, writeFileAtomicSync } from "../fs/atomic-write.js";
import { describeWriteFailure } from "../fs/write-errors.js";
import type { FsyncPolicy } from "./types.js";

/** Session files are private to their owner (docs/security.md): prompts, file contents, tool output. */
export const SESSION_FILE_MODE = 0o600;
export const SESSION_DIR_MODE = 0o700;

/** The file operations the writer needs; replaceable so hosts and tests can observe or fail writes. */
export interface SessionFileSystem extends AtomicWriteFileSystem {
	mkdirSync(path: string, options: { recursive: true; mode?: number }): unknown;
	/** Cuts a failed append back off, so the file stays a valid session. */
	ftruncateSync(fd: number, length: number): void;
}

export const nodeSessionFileSystem: SessionFileSystem = {
	...nodeAtomicWriteFileSystem,
	mkdirSync: (path, options) => nodeFs.mkdirSync(path, options),
	ftruncateSync: (fd, length) => nodeFs.ftruncateSync(fd, length),
};

/** Creates a session folder (and missing parents) private to the user. */
export function makeSessionDir(path: string, fs: SessionFileSystem = nodeSessionFileSystem): void {
	fs.mkdirSync(path, { recursive: true, mode: SESSION_DIR_MODE });
}

/** Replaces a whole session file atomically (migrations, branches); a new file is created 0600. */
export function replaceSessionFile(path: string, content: string, fs: SessionFileSystem = nodeSessionFileSystem): void {
	makeSessionDir(dirname(path), fs);
	writeFileAtomicSync(path, content, { fs, newFileMode: SESSION_FILE_MODE });
}

/** Ends a file whose last line lost its newline (a crash mid-append), so the next line starts fresh. */
export function terminateLastLine(path: string, fs: SessionFileSystem = nodeSessionFileSystem): void {
	const fd = fs.openSync(path, "a");
	try {
		fs.writeSync(fd, "\n");
	} finally {
		fs.closeSync(fd);
	}
}

/** Writes a string with one `write` call and insists that all of it went out. */
function writeWhole(fs: SessionFileSystem, fd: number, data: string): void {
	const expected = Buffer.byteLength(data);
	const written = fs.writeSync(fd, data);
	if (written === expected) return;
	// A short write: writing the rest either completes the line or reports why (ENOSPC).
	const bytes = Buffer.from(data, "utf8");
	for (let offset = written; offset < expected; ) {
		const more = fs.writeSync(fd, bytes.subarray(offset));
		if (more <= 0) throw new Error(`Short write to session file (${offset} of ${expected} bytes)`);
		offset += more;
	}
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
		makeSessionDir(dirname(this.path), this.fs);
		let fd: number;
		try {
			fd = this.fs.openSync(this.path, "wx", SESSION_FILE_MODE);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "EEXIST") {
				throw new Error(`Session file already exists: ${this.path}`, { cause: error });
			}
			throw describeWriteFailure(this.path, error, false);
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
			throw describeWriteFailure(this.path, error, false);
		}
		this.fs.closeSync(fd);
	}

	/** Continues an existing file of `size` bytes. */
	attach(size: number): void {
		this.expectedSize = size;
	}

	/**
	 * Appends one line. On failure (a full disk) whatever part of the line reached the file is cut off
	 * again, so the file still ends with a complete line, and the error names the file.
	 */
	append(line: string, important: boolean): void {
		const fd = this.descriptor();
		try {
			writeWhole(this.fs, fd, line);
			if (this.fsync === "always" || (this.fsync === "important" && important)) this.fs.fsyncSync(fd);
		} catch (error) {
			try {
				this.fs.ftruncateSync(fd, this.expectedSize);
			} catch {
				// The loader skips a torn last line; the error below still stops the turn.
			}
			throw describeWriteFailure(this.path, error, true);
		}
		this.expectedSize += Buffer.byteLength(line);
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
