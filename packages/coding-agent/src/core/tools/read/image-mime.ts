/** How many leading bytes are enough to recognise every supported image format. */
export const SNIFF_BYTES = 4100;

function isPng(bytes: Buffer): boolean {
	const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
	if (bytes.length < 33 || !signature.every((byte, i) => bytes[i] === byte)) return false;
	if (bytes.toString("latin1", 12, 16) !== "IHDR" || bytes.readUInt32BE(8) !== 13) return false;
	// An acTL chunk before the first IDAT marks an animated PNG, which is not sent as an image.
	let offset = 8;
	while (offset + 8 <= bytes.length) {
		const length = bytes.readUInt32BE(offset);
		const type = bytes.toString("latin1", offset + 4, offset + 8);
		if (type === "acTL") return false;
		if (type === "IDAT") return true;
		offset += 12 + length;
	}
	return true;
}

function isBmp(bytes: Buffer): boolean {
	if (bytes.length < 26 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) return false;
	const headerSize = bytes.readUInt32LE(14);
	const pixelOffset = bytes.readUInt32LE(10);
	return [12, 40, 52, 56, 64, 108, 124].includes(headerSize) && pixelOffset >= 14 + headerSize;
}

/** Recognises an image by its leading bytes (never by extension); anything else is text. */
export function detectImageMimeTypeFromBytes(bytes: Buffer): string | null {
	if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff && bytes[3] !== 0xf7) {
		return "image/jpeg";
	}
	if (isPng(bytes)) return "image/png";
	const head = bytes.toString("latin1", 0, 6);
	if (head === "GIF87a" || head === "GIF89a") return "image/gif";
	if (bytes.length >= 12 && bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") {
		return "image/webp";
	}
	if (isBmp(bytes)) return "image/bmp";
	return null;
}
