import { errorMessage } from "../errors.js";

/** What went wrong writing a file, said so a user knows what to do (the errno code stays on `code`). */
const REASONS: Readonly<Record<string, string>> = {
	ENOSPC: "Disk full",
	EDQUOT: "Disk quota exceeded",
	EROFS: "Read-only file system",
	EACCES: "Permission denied",
	EPERM: "Operation not permitted",
	EISDIR: "Is a directory",
	ENOTDIR: "A parent is not a directory",
	ENOENT: "No such folder",
	EEXIST: "File exists",
	ELOOP: "Too many levels of symbolic links",
	EFBIG: "File too large",
	EIO: "Input/output error",
};

/** A failed write of `path`, naming the file and whether it was left as it was. */
export class FileWriteError extends Error {
	readonly code: string | undefined;

	constructor(
		readonly path: string,
		message: string,
		code: string | undefined,
		options: { cause: unknown },
	) {
		super(message, options);
		this.name = "FileWriteError";
		this.code = code;
	}
}

/**
 * `Disk full: could not write <path>; the file was left unchanged`, and the like. `existed` says
 * whether there was an original to keep (a new file simply was not created).
 */
export function describeWriteFailure(path: string, error: unknown, existed: boolean): FileWriteError {
	if (error instanceof FileWriteError) return error;
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	const reason = (code && REASONS[code]) ?? errorMessage(error);
	const outcome = existed ? "the file was left unchanged" : "it was not created";
	return new FileWriteError(path, `${reason}: could not write ${path}; ${outcome}`, code, { cause: error });
}
