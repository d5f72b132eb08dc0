/** Reads the pixel dimensions from an image header without decoding it. */
export function imageDimensions(bytes: Buffer, mimeType: string): { width: number; height: number } | undefined {
	if (mimeType === "image/png" && bytes.length >= 24)
		return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
	if (mimeType === "image/gif" && bytes.length >= 10)
		return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
	if (mimeType === "image/webp" && bytes.length >= 30) {
		const format = bytes.toString("latin1", 12, 16);
		if (format === "VP8 ") return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
		if (format === "VP8L") {
			const bits = bytes.readUInt32LE(21);
			return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
		}
		if (format === "VP8X") return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
	}
	if (mimeType === "image/jpeg") {
		let offset = 2;
		while (offset + 9 < bytes.length) {
			if (bytes[offset] !== 0xff) return undefined;
			const marker = bytes[offset + 1] ?? 0;
			// SOF0–SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
			if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
				return { width: bytes.readUInt16BE(offset + 7), height: bytes.readUInt16BE(offset + 5) };
			}
			offset += 2 + bytes.readUInt16BE(offset + 2);
		}
	}
	return undefined;
}
