/** An image's size in pixels. */
export interface ImageDimensions {
	widthPx: number;
	heightPx: number;
}

/** The size assumed for an image whose dimensions cannot be read. */
export const DEFAULT_IMAGE_DIMENSIONS: ImageDimensions = { widthPx: 800, heightPx: 600 };

function pngDimensions(data: Buffer): ImageDimensions | undefined {
	if (data.length < 24 || data.readUInt32BE(0) !== 0x89504e47) return undefined;
	return { widthPx: data.readUInt32BE(16), heightPx: data.readUInt32BE(20) };
}

function gifDimensions(data: Buffer): ImageDimensions | undefined {
	if (data.length < 10 || data.toString("ascii", 0, 3) !== "GIF") return undefined;
	return { widthPx: data.readUInt16LE(6), heightPx: data.readUInt16LE(8) };
}

function jpegDimensions(data: Buffer): ImageDimensions | undefined {
	if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return undefined;
	let offset = 2;
	while (offset + 9 < data.length) {
		if (data[offset] !== 0xff) return undefined;
		const marker = data[offset + 1]!;
		const length = data.readUInt16BE(offset + 2);
		// SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
		if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
			return { heightPx: data.readUInt16BE(offset + 5), widthPx: data.readUInt16BE(offset + 7) };
		offset += 2 + length;
	}
	return undefined;
}

function webpDimensions(data: Buffer): ImageDimensions | undefined {
	if (data.length < 30 || data.toString("ascii", 0, 4) !== "RIFF" || data.toString("ascii", 8, 12) !== "WEBP")
		return undefined;
	const chunk = data.toString("ascii", 12, 16);
	if (chunk === "VP8X") return { widthPx: 1 + data.readUIntLE(24, 3), heightPx: 1 + data.readUIntLE(27, 3) };
	if (chunk === "VP8L") {
		const bits = data.readUInt32LE(21);
		return { widthPx: (bits & 0x3fff) + 1, heightPx: ((bits >> 14) & 0x3fff) + 1 };
	}
	if (chunk === "VP8 ") return { widthPx: data.readUInt16LE(26) & 0x3fff, heightPx: data.readUInt16LE(28) & 0x3fff };
	return undefined;
}

type HeaderReader = (data: Buffer) => ImageDimensions | undefined;

/** Enough of the data for any header these readers look at (JPEG may put its frame after large metadata). */
const HEADER_BASE64_CHARS = 64 * 1024;

/** Reads the header of base64 image data; a truncated or malformed header gives null. */
function fromBase64(read: HeaderReader): (base64: string) => ImageDimensions | null {
	return (base64) => {
		try {
			return read(Buffer.from(base64.slice(0, HEADER_BASE64_CHARS), "base64")) ?? null;
		} catch {
			return null;
		}
	};
}

/** Reads the pixel size of a base64 PNG from its header; null when it is not one. */
export const getPngDimensions = fromBase64(pngDimensions);
/** Reads the pixel size of a base64 GIF from its header; null when it is not one. */
export const getGifDimensions = fromBase64(gifDimensions);
/** Reads every SOF frame kind (baseline, progressive, lossless, arithmetic), not only baseline. */
export const getJpegDimensions = fromBase64(jpegDimensions);
/** Reads the pixel size of a base64 WebP (lossy, lossless or extended) from its header; null when it is not one. */
export const getWebpDimensions = fromBase64(webpDimensions);

const READERS: Record<string, (base64: string) => ImageDimensions | null> = {
	"image/png": getPngDimensions,
	"image/jpeg": getJpegDimensions,
	"image/jpg": getJpegDimensions,
	"image/gif": getGifDimensions,
	"image/webp": getWebpDimensions,
};

/** Dimensions from the image header (PNG, JPEG, GIF, WebP); null when unknown or unreadable. */
export function getImageDimensions(base64: string, mimeType: string): ImageDimensions | null {
	return READERS[mimeType.toLowerCase()]?.(base64) ?? null;
}
