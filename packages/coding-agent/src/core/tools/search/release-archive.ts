import { gunzipSync, inflateRawSync } from "node:zlib";

/**
 * Just enough of tar and zip to take one executable out of a ripgrep/fd release archive, so
 * downloading needs neither a dependency nor a `tar`/`unzip` on the machine. Corrupt input throws.
 */

const BLOCK = 512;

/** The last path segment; zip writers on Windows may use backslashes. */
function baseName(path: string): string {
	return path.split(/[\\/]/).pop() ?? "";
}

/** A NUL-terminated ASCII field of a tar header. */
function text(header: Buffer, offset: number, length: number): string {
	const field = header.subarray(offset, offset + length);
	const end = field.indexOf(0);
	return field.subarray(0, end < 0 ? length : end).toString("utf8");
}

function octal(header: Buffer, offset: number, length: number): number {
	const value = text(header, offset, length).trim();
	if (!/^[0-7]*$/.test(value)) throw new Error("corrupt tar header");
	return value === "" ? 0 : Number.parseInt(value, 8);
}

/** The header checksum counts its own field as spaces; a mismatch means the archive is not tar. */
function checkHeader(header: Buffer): void {
	let sum = 0;
	for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] ?? 0);
	if (sum !== octal(header, 148, 8)) throw new Error("corrupt tar header");
}

/** The `path` record of a pax extended header (`<length> path=<value>\n` records). */
function paxPath(data: Buffer): string | undefined {
	let offset = 0;
	while (offset < data.length) {
		const space = data.indexOf(0x20, offset);
		const length = space < 0 ? Number.NaN : Number.parseInt(data.toString("utf8", offset, space), 10);
		if (!(length > space - offset)) throw new Error("corrupt pax header");
		const record = data.toString("utf8", space + 1, offset + length - 1);
		if (record.startsWith("path=")) return record.slice("path=".length);
		offset += length;
	}
	return undefined;
}

/** The contents of the first regular file called `fileName` (at any depth) in a `.tar.gz`. */
export function extractFromTarGz(archive: Uint8Array, fileName: string): Buffer {
	const tar = gunzipSync(archive);
	let offset = 0;
	let longName: string | undefined;
	while (offset + BLOCK <= tar.length) {
		const header = tar.subarray(offset, offset + BLOCK);
		if (header.every((byte) => byte === 0)) break;
		checkHeader(header);
		const size = octal(header, 124, 12);
		const type = String.fromCharCode(header[156] ?? 0);
		const start = offset + BLOCK;
		const data = tar.subarray(start, start + size);
		if (data.length < size) throw new Error("truncated tar archive");
		// Only the base name matters, so a ustar name prefix (always whole directories) can be ignored.
		const name = longName ?? text(header, 0, 100);
		longName = undefined;
		if (type === "L") longName = text(data, 0, data.length);
		else if (type === "x") longName = paxPath(data);
		else if ((type === "0" || type === "\0") && baseName(name) === fileName) return Buffer.from(data);
		offset = start + Math.ceil(size / BLOCK) * BLOCK;
	}
	throw new Error(`${fileName} not found in the archive`);
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_ENTRY = 0x04034b50;

/** The contents of the first file called `fileName` (at any depth) in a `.zip` (stored or deflated). */
export function extractFromZip(archive: Uint8Array, fileName: string): Buffer {
	const zip = Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
	// The end record sits in the last 22 bytes plus an optional comment of up to 64 KiB.
	let end = -1;
	for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
		if (zip.readUInt32LE(i) === END_OF_CENTRAL_DIRECTORY) {
			end = i;
			break;
		}
	}
	if (end < 0) throw new Error("not a zip archive");
	const entries = zip.readUInt16LE(end + 10);
	let offset = zip.readUInt32LE(end + 16);
	for (let i = 0; i < entries; i++) {
		if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== CENTRAL_ENTRY)
			throw new Error("corrupt zip directory");
		const method = zip.readUInt16LE(offset + 10);
		const compressedSize = zip.readUInt32LE(offset + 20);
		const size = zip.readUInt32LE(offset + 24);
		const nameLength = zip.readUInt16LE(offset + 28);
		const name = zip.toString("utf8", offset + 46, offset + 46 + nameLength);
		const local = zip.readUInt32LE(offset + 42);
		offset += 46 + nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
		if (name.endsWith("/") || baseName(name) !== fileName) continue;
		if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL_ENTRY) throw new Error("corrupt zip entry");
		const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
		const data = zip.subarray(start, start + compressedSize);
		if (data.length < compressedSize) throw new Error("truncated zip archive");
		if (method !== 0 && method !== 8) throw new Error(`unsupported zip compression method ${method}`);
		const content = method === 0 ? Buffer.from(data) : inflateRawSync(data);
		if (content.length !== size) throw new Error("corrupt zip entry");
		return content;
	}
	throw new Error(`${fileName} not found in the archive`);
}
