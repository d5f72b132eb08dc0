import { randomBytes } from "node:crypto";
import * as nodeFs from "node:fs";
import * as nodeFsPromises from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { describeWriteFailure } from "./write-errors.js";

/*
 * Every file tau rewrites goes through here (docs/security.md): the new content is written to a
 * temporary file in the same folder, flushed to disk, then renamed over the target. A crash, a kill
 * or a full disk at any moment leaves the target either exactly as it was or complete.
 */

/** The operations an atomic write performs, replaceable so tests can inject failures (a full disk). */
export interface AtomicWriteFileSystem {
	openSync(path: string, flags: string, mode?: number): number;
	writeSync(fd: number, data: string | Uint8Array): number;
	fsyncSync(fd: number): void;
	closeSync(fd: number): void;
	renameSync(from: string, to: string): void;
	unlinkSync(path: string): void;
}

export const nodeAtomicWriteFileSystem: AtomicWriteFileSystem = {
	openSync: (path, flags, mode) => nodeFs.openSync(path, flags, mode),
	writeSync: (fd, data) => (typeof data === "string" ? nodeFs.writeSync(fd, data) : nodeFs.writeSync(fd, data)),
	fsyncSync: (fd) => nodeFs.fsyncSync(fd),
	closeSync: (fd) => nodeFs.closeSync(fd),
	renameSync: (from, to) => nodeFs.renameSync(from, to),
	unlinkSync: (path) => nodeFs.unlinkSync(path),
};

/** The asynchronous counterpart (a subset of `node:fs/promises`), for tools that must not block. */
export interface AtomicWriteFileSystemAsync {
	open(
		path: string,
		flags: string,
		mode?: number,
	): Promise<{
		write(buffer: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }>;
		sync(): Promise<void>;
		chmod(mode: number): Promise<void>;
		chown(uid: number, gid: number): Promise<void>;
		close(): Promise<void>;
	}>;
	rename(from: string, to: string): Promise<void>;
	unlink(path: string): Promise<void>;
}

export interface AtomicWriteOptions {
	/** Mode of a file that does not exist yet; default 0o666 less the umask, like any new file. */
	newFileMode?: number;
	/** Fail with `EEXIST` instead of replacing an existing file (exports that must not clobber). */
	exclusive?: boolean;
}

/** Where the bytes go and what the result must look like. */
interface WritePlan {
	/** The real file: symlinks are followed, so the link stays and its target is replaced. */
	target: string;
	temp: string;
	/** The existing file's mode and owner to carry over, or the mode of a new file. */
	existing: { mode: number; uid: number; gid: number } | undefined;
	newFileMode: number;
	/** A device, FIFO or socket: replacing it would be wrong, so it is written in place. */
	special: boolean;
}

const MAX_LINK_DEPTH = 40;

/** Follows symlinks to the file they name, also when that file does not exist yet. */
function resolveLinks(path: string): string {
	let current = resolve(path);
	for (let depth = 0; depth < MAX_LINK_DEPTH; depth++) {
		let stat: nodeFs.Stats;
		try {
			stat = nodeFs.lstatSync(current);
		} catch {
			return current;
		}
		if (!stat.isSymbolicLink()) return current;
		current = resolve(dirname(current), nodeFs.readlinkSync(current));
	}
	throw Object.assign(new Error(`Too many levels of symbolic links: ${path}`), { code: "ELOOP" });
}

function planWrite(path: string, options: AtomicWriteOptions): WritePlan {
	const target = resolveLinks(path);
	let stat: nodeFs.Stats | undefined;
	try {
		stat = nodeFs.statSync(target);
	} catch {
		// A new file.
	}
	if (stat && options.exclusive) throw Object.assign(new Error(`File exists: ${path}`), { code: "EEXIST" });
	const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
	return {
		target,
		temp,
		existing: stat?.isFile() ? { mode: stat.mode & 0o7777, uid: stat.uid, gid: stat.gid } : undefined,
		newFileMode: options.newFileMode ?? 0o666,
		special: stat !== undefined && !stat.isFile() && !stat.isDirectory(),
	};
}

function asBuffer(data: string | Uint8Array): Uint8Array {
	return typeof data === "string" ? Buffer.from(data, "utf8") : data;
}

/** Whether the owner of the new file must be set back to the old one's (tau running as another user, e.g. root). */
function ownerDiffers(existing: WritePlan["existing"]): existing is NonNullable<WritePlan["existing"]> {
	return existing !== undefined && (existing.uid !== process.getuid?.() || existing.gid !== process.getgid?.());
}

/** Makes the rename itself durable; not every file system allows syncing a folder, which is fine. */
function syncFolder(folder: string): void {
	if (process.platform === "win32") return;
	try {
		const fd = nodeFs.openSync(folder, "r");
		try {
			nodeFs.fsyncSync(fd);
		} finally {
			nodeFs.closeSync(fd);
		}
	} catch {
		// The data itself is already on disk.
	}
}

/**
 * Replaces `path` with `data` atomically (see the module comment). The existing file's mode (and
 * owner, where allowed) is kept; a symlink is written through. On failure the original is untouched,
 * the temporary file is removed, and the error says what happened ("Disk full: …" on ENOSPC).
 */
export function writeFileAtomicSync(
	path: string,
	data: string | Uint8Array,
	options: AtomicWriteOptions & { fs?: AtomicWriteFileSystem } = {},
): void {
	const fs = options.fs ?? nodeAtomicWriteFileSystem;
	let plan: WritePlan | undefined;
	try {
		plan = planWrite(path, options);
		if (plan.special) {
			nodeFs.writeFileSync(plan.target, data);
			return;
		}
		const fd = fs.openSync(plan.temp, "wx", plan.existing?.mode ?? plan.newFileMode);
		try {
			const bytes = asBuffer(data);
			for (let offset = 0; offset < bytes.length; ) {
				const written = fs.writeSync(fd, bytes.subarray(offset));
				if (written <= 0) throw Object.assign(new Error("No progress writing"), { code: "EIO" });
				offset += written;
			}
			// The umask filtered the mode `open` applied: an existing file's mode is restored exactly.
			if (plan.existing) nodeFs.fchmodSync(fd, plan.existing.mode);
			if (ownerDiffers(plan.existing)) {
				try {
					nodeFs.fchownSync(fd, plan.existing.uid, plan.existing.gid);
				} catch {
					// Only a privileged process may give a file away.
				}
			}
			fs.fsyncSync(fd);
		} finally {
			fs.closeSync(fd);
		}
		if (options.exclusive) {
			nodeFs.linkSync(plan.temp, plan.target);
			fs.unlinkSync(plan.temp);
		} else fs.renameSync(plan.temp, plan.target);
		syncFolder(dirname(plan.target));
	} catch (error) {
		if (plan && !plan.special) removeQuietly(() => fs.unlinkSync(plan!.temp));
		throw describeWriteFailure(path, error, plan?.existing !== undefined);
	}
}

/** `writeFileAtomicSync` without blocking the event loop (the write and edit tools). */
export async function writeFileAtomic(
	path: string,
	data: string | Uint8Array,
	options: AtomicWriteOptions & { fs?: AtomicWriteFileSystemAsync } = {},
): Promise<void> {
	const fs = options.fs ?? nodeFsPromises;
	let plan: WritePlan | undefined;
	try {
		plan = planWrite(path, options);
		if (plan.special) {
			await nodeFsPromises.writeFile(plan.target, data);
			return;
		}
		const handle = await fs.open(plan.temp, "wx", plan.existing?.mode ?? plan.newFileMode);
		try {
			const bytes = asBuffer(data);
			for (let offset = 0; offset < bytes.length; ) {
				const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
				if (bytesWritten <= 0) throw Object.assign(new Error("No progress writing"), { code: "EIO" });
				offset += bytesWritten;
			}
			if (plan.existing) await handle.chmod(plan.existing.mode);
			if (ownerDiffers(plan.existing)) await handle.chown(plan.existing.uid, plan.existing.gid).catch(() => {});
			await handle.sync();
		} finally {
			await handle.close();
		}
		if (options.exclusive) {
			await nodeFsPromises.link(plan.temp, plan.target);
			await fs.unlink(plan.temp);
		} else await fs.rename(plan.temp, plan.target);
		syncFolder(dirname(plan.target));
	} catch (error) {
		if (plan && !plan.special) await fs.unlink(plan.temp).catch(() => {});
		throw describeWriteFailure(path, error, plan?.existing !== undefined);
	}
}

function removeQuietly(remove: () => void): void {
	try {
		remove();
	} catch {
		// Never created, or already gone.
	}
}
