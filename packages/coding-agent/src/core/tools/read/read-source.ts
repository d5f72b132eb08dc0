import { readFileSync, statSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import type { ReadOperations } from "../operations.js";
import { throwIfAborted } from "../types.js";
import { detectImageMimeTypeFromBytes, SNIFF_BYTES } from "./image-mime.js";

/** A file the read tool has checked and sniffed, ready to be read as an image or as text. */
export interface ReadSource {
	/** The sniffed image type, or null for text. */
	mimeType: string | null;
	readAll(): Promise<Buffer>;
	/** Undefined when the backend cannot stream (the whole-file path is used). */
	chunks(signal: AbortSignal | undefined): AsyncIterable<Uint8Array> | undefined;
	close(): Promise<void>;
}

/** Later reads are large so huge files stream fast; only the lines shown are retained. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * The local filesystem with one open per call: the open is the readability check, the first
 * bytes read from the handle are both the image sniff and the start of the content, and a file
 * smaller than the sniff window needs no further read.
 */
export async function openLocalSource(path: string, signal: AbortSignal | undefined): Promise<ReadSource> {
	const small = smallRegularFile(path);
	if (small) return wholeSource(small);
	const handle = await open(path, "r");
	try {
		throwIfAborted(signal);
		const head = await readAt(handle, SNIFF_BYTES, 0);
		throwIfAborted(signal);
		return {
			mimeType: detectImageMimeTypeFromBytes(head),
			// Positional reads leave the handle's own position at 0, so readFile returns the whole file.
			readAll: async () => (head.length < SNIFF_BYTES ? head : handle.readFile()),
			chunks: () => chunksFrom(handle, head),
			close: () => handle.close(),
		};
	} catch (error) {
		await handle.close();
		throw error;
	}
}

/**
 * The bytes of a regular file smaller than the sniff window, read at once: the open, read and close
 * below are three thread-pool round trips, most of the cost of reading a small source file. Anything
 * else (a missing or unreadable path, a directory, a FIFO, a larger file) is left to the general path,
 * which also words the errors.
 */
function smallRegularFile(path: string): Buffer | undefined {
	try {
		const stats = statSync(path, { throwIfNoEntry: false });
		return stats?.isFile() && stats.size < SNIFF_BYTES ? readFileSync(path) : undefined;
	} catch {
		return undefined;
	}
}

/** A file already read whole (it may have grown since its size was taken: all of it is here). */
function wholeSource(bytes: Buffer): ReadSource {
	return {
		mimeType: detectImageMimeTypeFromBytes(bytes),
		readAll: async () => bytes,
		chunks: () => oneChunk(bytes),
		close: async () => undefined,
	};
}

async function* oneChunk(bytes: Buffer): AsyncGenerator<Buffer> {
	if (bytes.length > 0) yield bytes;
}

async function readAt(handle: FileHandle, length: number, position: number): Promise<Buffer> {
	const buffer = Buffer.allocUnsafe(length);
	const { bytesRead } = await handle.read(buffer, 0, length, position);
	return buffer.subarray(0, bytesRead);
}

/**
 * The sniffed head, then the rest of the file by position (a short head means end of file). Two
 * buffers alternate so the next read runs while the caller scans the current chunk; the line
 * selector copies what it keeps before asking for the next chunk, so a buffer is free again by
 * the time it is refilled.
 */
async function* chunksFrom(handle: FileHandle, head: Buffer): AsyncGenerator<Buffer> {
	if (head.length > 0) yield head;
	if (head.length < SNIFF_BYTES) return;
	const buffers = [Buffer.allocUnsafe(CHUNK_BYTES), Buffer.allocUnsafe(CHUNK_BYTES)] as const;
	let position = head.length;
	let current = 0;
	let pending = handle.read(buffers[current], 0, CHUNK_BYTES, position);
	try {
		for (;;) {
			const { bytesRead, buffer } = await pending;
			if (bytesRead === 0) return;
			position += bytesRead;
			current ^= 1;
			pending = handle.read(buffers[current], 0, CHUNK_BYTES, position);
			yield buffer.subarray(0, bytesRead);
		}
	} finally {
		// A caller that stops early (abort) leaves one read in flight; let it settle before close.
		await pending.catch(() => undefined);
	}
}

/** Custom backends: the access check, the image sniff and the content read are separate calls. */
export async function openOperationsSource(
	ops: ReadOperations,
	path: string,
	signal: AbortSignal | undefined,
): Promise<ReadSource> {
	await ops.access(path);
	throwIfAborted(signal);
	const mimeType = (await ops.detectImageMimeType?.(path)) ?? null;
	throwIfAborted(signal);
	const { createReadStream } = ops;
	return {
		mimeType,
		readAll: () => ops.readFile(path),
		chunks: (chunkSignal) =>
			createReadStream ? createReadStream(path, chunkSignal ? { signal: chunkSignal } : {}) : undefined,
		close: async () => {},
	};
}
