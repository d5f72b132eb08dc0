import {
	chmodSync,
	closeSync,
	fsyncSync,
	openSync,
	realpathSync,
	renameSync,
	statSync,
	unlinkSync,
	writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Replaces `path` with `text` via a temp file in the same directory and a rename, so a crash
 * mid-write leaves either the old or the new file, never a truncated one. The existing file's
 * mode is kept; a new file gets `newFileMode`. A symlink stays a symlink: its target is replaced.
 */
export function writeFileAtomicSync(linkOrPath: string, text: string, newFileMode = 0o644): void {
	// Write through a symlink (dotfile managers link settings files) instead of replacing it.
	let path = linkOrPath;
	try {
		path = realpathSync(linkOrPath);
	} catch {
		// a new file
	}
	let mode = newFileMode;
	try {
		mode = statSync(path).mode & 0o7777;
	} catch {
		// a new file: use newFileMode
	}
	const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.${tempCounter++}.tmp`);
	const fd = openSync(temp, "wx", mode);
	try {
		writeSync(fd, text);
		fsyncSync(fd);
	} catch (error) {
		closeSync(fd);
		unlinkSync(temp);
		throw error;
	}
	closeSync(fd);
	try {
		// openSync's mode is filtered by the umask; set it exactly.
		chmodSync(temp, mode);
		renameSync(temp, path);
	} catch (error) {
		try {
			unlinkSync(temp);
		} catch {
			// already gone
		}
		throw error;
	}
}

let tempCounter = 0;
