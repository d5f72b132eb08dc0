import { crc32, deflateSync } from "node:zlib";

function chunk(type: string, data: Buffer): Buffer {
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(body));
	return Buffer.concat([length, body, crc]);
}

/** A 1×1 PNG; `animated` inserts an acTL chunk before IDAT (APNG). */
export function png(animated = false): Buffer {
	const header = Buffer.alloc(13);
	header.writeUInt32BE(1, 0);
	header.writeUInt32BE(1, 4);
	header[8] = 8;
	header[9] = 6;
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk("IHDR", header),
		...(animated ? [chunk("acTL", Buffer.alloc(8))] : []),
		chunk("IDAT", deflateSync(Buffer.from([0, 255, 0, 0, 255]))),
		chunk("IEND", Buffer.alloc(0)),
	]);
}

function paeth(a: number, b: number, c: number): number {
	const p = a + b - c;
	const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** An RGB PNG of the given size; rows cycle through all five filter types, as real encoders mix them. */
export function rgbPng(
	width: number,
	height: number,
	color: (x: number, y: number) => [number, number, number],
): Buffer {
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header[8] = 8;
	header[9] = 2;
	const stride = width * 3;
	const raw = Buffer.alloc((stride + 1) * height);
	let previous = Buffer.alloc(stride);
	for (let y = 0; y < height; y++) {
		const row = Buffer.alloc(stride);
		for (let x = 0; x < width; x++) row.set(color(x, y), x * 3);
		const filter = y % 5;
		raw[y * (stride + 1)] = filter;
		for (let i = 0; i < stride; i++) {
			const left = i >= 3 ? (row[i - 3] ?? 0) : 0;
			const up = previous[i] ?? 0;
			const upLeft = i >= 3 ? (previous[i - 3] ?? 0) : 0;
			const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter] ?? 0;
			raw[y * (stride + 1) + 1 + i] = ((row[i] ?? 0) - predictor) & 0xff;
		}
		previous = row;
	}
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk("IHDR", header),
		chunk("IDAT", deflateSync(raw, { level: 1 })),
		chunk("IEND", Buffer.alloc(0)),
	]);
}

/** Width and height from a PNG's IHDR. */
export const pngSize = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

export const jpeg = (): Buffer => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);
export const gif = (): Buffer => Buffer.concat([Buffer.from("GIF89a", "latin1"), Buffer.alloc(32, 1)]);
export const webp = (): Buffer =>
	Buffer.concat([Buffer.from("RIFF", "latin1"), Buffer.alloc(4), Buffer.from("WEBPVP8 ", "latin1"), Buffer.alloc(32)]);

/** A 2×2 24-bit bottom-up BMP: top row red, blue; bottom row green, white. */
export function bmp(): Buffer {
	const rowBytes = 8; // 2 pixels × 3 bytes, padded to 4
	const header = Buffer.alloc(54);
	header.write("BM", 0, "latin1");
	header.writeUInt32LE(54 + rowBytes * 2, 2);
	header.writeUInt32LE(54, 10);
	header.writeUInt32LE(40, 14);
	header.writeInt32LE(2, 18);
	header.writeInt32LE(2, 22);
	header.writeUInt16LE(1, 26);
	header.writeUInt16LE(24, 28);
	const bottom = Buffer.from([0, 255, 0, 255, 255, 255, 0, 0]); // BGR green, white
	const top = Buffer.from([0, 0, 255, 255, 0, 0, 0, 0]); // BGR red, blue
	return Buffer.concat([header, bottom, top]);
}
