import { crc32, deflateSync } from "node:zlib";

function chunk(type: string, data: Buffer): Buffer {
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(typed));
	return Buffer.concat([length, typed, crc]);
}

/** Encodes 8-bit RGBA pixels (row-major, top-down) as a PNG. */
export function encodePng(width: number, height: number, rgba: Buffer): Buffer {
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header[8] = 8; // bit depth
	header[9] = 6; // colour type RGBA
	const stride = width * 4;
	const raw = Buffer.alloc((stride + 1) * height);
	for (let y = 0; y < height; y++) rgba.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk("IHDR", header),
		chunk("IDAT", deflateSync(raw)),
		chunk("IEND", Buffer.alloc(0)),
	]);
}

/** Converts an uncompressed 24- or 32-bit BMP to PNG; other BMP variants are rejected. */
export function convertBmpToPng(bmp: Buffer): { png: Buffer; width: number; height: number } {
	const pixelOffset = bmp.readUInt32LE(10);
	const width = bmp.readInt32LE(18);
	const signedHeight = bmp.readInt32LE(22);
	const bitsPerPixel = bmp.readUInt16LE(28);
	const compression = bmp.readUInt32LE(30);
	if ((bitsPerPixel !== 24 && bitsPerPixel !== 32) || (compression !== 0 && compression !== 3)) {
		throw new Error(`Unsupported BMP format (${bitsPerPixel}-bit, compression ${compression})`);
	}
	const height = Math.abs(signedHeight);
	const bytesPerPixel = bitsPerPixel / 8;
	const stride = Math.ceil((width * bytesPerPixel) / 4) * 4;
	const rgba = Buffer.alloc(width * height * 4);
	for (let y = 0; y < height; y++) {
		// Positive height means the rows are stored bottom-up.
		const sourceRow = signedHeight > 0 ? height - 1 - y : y;
		for (let x = 0; x < width; x++) {
			const source = pixelOffset + sourceRow * stride + x * bytesPerPixel;
			const target = (y * width + x) * 4;
			rgba[target] = bmp[source + 2] ?? 0;
			rgba[target + 1] = bmp[source + 1] ?? 0;
			rgba[target + 2] = bmp[source] ?? 0;
			rgba[target + 3] = bytesPerPixel === 4 && compression === 3 ? (bmp[source + 3] ?? 255) : 255;
		}
	}
	return { png: encodePng(width, height, rgba), width, height };
}
