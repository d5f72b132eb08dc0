import { closeSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";

const CHUNK_BYTES = 1024 * 1024;

export interface LineScan {
	/** Bytes consumed from the start offset. */
	bytesRead: number;
	/** False when the scanned range ended with a non-empty fragment after the last LF. */
	endsWithNewline: boolean;
	/** True when `onLine` asked to stop early. */
	stopped: boolean;
}

/**
 * Streams the lines of a file from `offset`, decoding UTF-8 incrementally so a multi-byte character
 * split across chunks decodes correctly. `onLine` returns `false` to stop. A leading BOM is removed
 * when reading from offset 0.
 */
export function scanLines(
	path: string,
	onLine: (line: string) => boolean | undefined,
	options: { offset?: number; chunkBytes?: number; maxBytes?: number } = {},
): LineScan {
	const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
	const fd = openSync(path, "r");
	try {
		// Node's own decoder: about twice as fast as TextDecoder's streaming mode on a large file.
		const decoder = new StringDecoder("utf8");
		const buffer = Buffer.allocUnsafe(chunkBytes);
		let position = options.offset ?? 0;
		let pending = "";
		let bytesRead = 0;
		let first = position === 0;
		for (;;) {
			if (options.maxBytes !== undefined && bytesRead >= options.maxBytes) {
				throw new SessionHeaderScanLimitError(path, options.maxBytes);
			}
			const count = readSync(fd, buffer, 0, chunkBytes, position);
			if (count === 0) break;
			position += count;
			bytesRead += count;
			let text = pending + decoder.write(buffer.subarray(0, count));
			if (first) {
				if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
				first = false;
			}
			let start = 0;
			for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
				const line = text.slice(start, nl);
				start = nl + 1;
				if (onLine(line) === false) return { bytesRead, endsWithNewline: true, stopped: true };
			}
			pending = text.slice(start);
		}
		pending += decoder.end();
		if (pending !== "") {
			if (onLine(pending) === false) return { bytesRead, endsWithNewline: false, stopped: true };
			return { bytesRead, endsWithNewline: false, stopped: false };
		}
		return { bytesRead, endsWithNewline: true, stopped: false };
	} finally {
		closeSync(fd);
	}
}

/** Header discovery gave up: the first line is larger than the scan limit. */
export class SessionHeaderScanLimitError extends Error {
	constructor(path: string, limit: number) {
		super(`Session header of ${path} exceeds the ${limit}-byte scan limit`);
		this.name = "SessionHeaderScanLimitError";
	}
}
