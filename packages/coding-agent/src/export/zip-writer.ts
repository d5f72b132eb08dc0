import { crc32, deflateRawSync } from "node:zlib";

/** One file of a zip archive. */
export interface ZipEntry {
	/** Path inside the archive, `/`-separated. */
	name: string;
	data: string | Uint8Array;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
/** 2.0: the version that introduced deflate. */
const VERSION = 20;
/** General purpose flag bit 11: names are UTF-8. */
const UTF8_NAMES = 0x0800;
const DEFLATE = 8;
/** Without zip64 records, sizes and offsets are 32-bit. */
const MAX_32 = 0xffffffff;

/** MS-DOS time and date fields (local time, two-second resolution, years from 1980). */
function dosDateTime(date: Date): { time: number; date: number } {
	const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
	return {
		time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
		date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
	};
}

/** The fields a local header and its central directory record share, from "version needed" on. */
function commonFields(
	stamp: { time: number; date: number },
	crc: number,
	compressed: number,
	size: number,
	nameLength: number,
): Buffer {
	const fields = Buffer.alloc(26);
	fields.writeUInt16LE(VERSION, 0);
	fields.writeUInt16LE(UTF8_NAMES, 2);
	fields.writeUInt16LE(DEFLATE, 4);
	fields.writeUInt16LE(stamp.time, 6);
	fields.writeUInt16LE(stamp.date, 8);
	fields.writeUInt32LE(crc, 10);
	fields.writeUInt32LE(compressed, 14);
	fields.writeUInt32LE(size, 18);
	fields.writeUInt16LE(nameLength, 22);
	fields.writeUInt16LE(0, 24); // extra field length
	return fields;
}

/** A deflated zip archive of `entries`, every file stamped with `modified`. */
export function createZip(entries: readonly ZipEntry[], modified: Date = new Date()): Buffer {
	const stamp = dosDateTime(modified);
	const parts: Buffer[] = [];
	const central: Buffer[] = [];
	let offset = 0;
	for (const entry of entries) {
		const name = Buffer.from(entry.name, "utf8");
		const data = typeof entry.data === "string" ? Buffer.from(entry.data, "utf8") : entry.data;
		const compressed = deflateRawSync(data);
		if (data.length > MAX_32 || offset + compressed.length > MAX_32) {
			throw new Error(`Zip archive too large for ${entry.name}`);
		}
		const fields = commonFields(stamp, crc32(data), compressed.length, data.length, name.length);

		const local = Buffer.alloc(4);
		local.writeUInt32LE(LOCAL_HEADER, 0);
		parts.push(local, fields, name, compressed);

		const record = Buffer.alloc(46);
		record.writeUInt32LE(CENTRAL_HEADER, 0);
		record.writeUInt16LE(VERSION, 4); // version made by
		fields.copy(record, 6);
		// 32..41: comment length, disk number, internal and external attributes stay 0.
		record.writeUInt32LE(offset, 42);
		central.push(record, name);

		offset += local.length + fields.length + name.length + compressed.length;
	}
	const directory = Buffer.concat(central);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
	end.writeUInt16LE(entries.length, 8);
	end.writeUInt16LE(entries.length, 10);
	end.writeUInt32LE(directory.length, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...parts, directory, end]);
}
