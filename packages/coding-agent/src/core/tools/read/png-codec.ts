import { inflateSync } from "node:zlib";
import { encodePng } from "./bmp-to-png.js";

export interface RgbaImage {
	width: number;
	height: number;
	/** 8-bit RGBA, row-major, top-down. */
	pixels: Buffer;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function paeth(a: number, b: number, c: number): number {
	const p = a + b - c;
	const pa = Math.abs(p - a);
	const pb = Math.abs(p - b);
	const pc = Math.abs(p - c);
	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Reverses the per-row filters of non-interlaced PNG image data in place. */
function unfilter(data: Buffer, height: number, stride: number, bytesPerPixel: number): Buffer {
	const out = Buffer.alloc(height * stride);
	for (let y = 0; y < height; y++) {
		const filter = data[y * (stride + 1)] ?? 0;
		const source = y * (stride + 1) + 1;
		const row = y * stride;
		for (let x = 0; x < stride; x++) {
			const raw = data[source + x] ?? 0;
			const left = x >= bytesPerPixel ? (out[row + x - bytesPerPixel] ?? 0) : 0;
			const up = y > 0 ? (out[row - stride + x] ?? 0) : 0;
			const upLeft = y > 0 && x >= bytesPerPixel ? (out[row - stride + x - bytesPerPixel] ?? 0) : 0;
			let value = raw;
			if (filter === 1) value = raw + left;
			else if (filter === 2) value = raw + up;
			else if (filter === 3) value = raw + ((left + up) >> 1);
			else if (filter === 4) value = raw + paeth(left, up, upLeft);
			out[row + x] = value & 0xff;
		}
	}
	return out;
}

/** Decodes a non-interlaced PNG (any colour type, bit depth up to 16) to 8-bit RGBA. */
export function decodePng(png: Buffer): RgbaImage {
	let offset = 8;
	let width = 0;
	let height = 0;
	let bitDepth = 8;
	let colorType = 6;
	let palette: Buffer = Buffer.alloc(0);
	let transparency: Buffer = Buffer.alloc(0);
	const data: Buffer[] = [];
	while (offset + 8 <= png.length) {
		const length = png.readUInt32BE(offset);
		const type = png.toString("latin1", offset + 4, offset + 8);
		const body = png.subarray(offset + 8, offset + 8 + length);
		if (type === "IHDR") {
			width = body.readUInt32BE(0);
			height = body.readUInt32BE(4);
			bitDepth = body[8] ?? 8;
			colorType = body[9] ?? 6;
			if (body[12] !== 0) throw new Error("Interlaced PNG images are not supported for resizing");
		} else if (type === "PLTE") palette = body;
		else if (type === "tRNS") transparency = body;
		else if (type === "IDAT") data.push(body);
		else if (type === "IEND") break;
		offset += 12 + length;
	}
	const channels = CHANNELS[colorType];
	if (!channels || width === 0 || height === 0) throw new Error("Unsupported PNG image");
	const bitsPerPixel = channels * bitDepth;
	const stride = Math.ceil((width * bitsPerPixel) / 8);
	const raw = unfilter(inflateSync(Buffer.concat(data)), height, stride, Math.max(1, bitsPerPixel >> 3));
	const pixels = Buffer.alloc(width * height * 4);
	const maxSample = (1 << Math.min(bitDepth, 8)) - 1;
	const sample = (row: number, index: number): number => {
		if (bitDepth === 16) return raw[row + index * 2] ?? 0;
		if (bitDepth === 8) return raw[row + index] ?? 0;
		const bitOffset = index * bitDepth;
		const byte = raw[row + (bitOffset >> 3)] ?? 0;
		return (byte >> (8 - bitDepth - (bitOffset & 7))) & maxSample;
	};
	for (let y = 0; y < height; y++) {
		const row = y * stride;
		for (let x = 0; x < width; x++) {
			const target = (y * width + x) * 4;
			const scale = (value: number) =>
				bitDepth < 8 && colorType !== 3 ? Math.round((value * 255) / maxSample) : value;
			if (colorType === 3) {
				const index = sample(row, x);
				pixels[target] = palette[index * 3] ?? 0;
				pixels[target + 1] = palette[index * 3 + 1] ?? 0;
				pixels[target + 2] = palette[index * 3 + 2] ?? 0;
				pixels[target + 3] = transparency[index] ?? 255;
			} else if (colorType === 0 || colorType === 4) {
				const gray = scale(sample(row, x * channels));
				pixels[target] = gray;
				pixels[target + 1] = gray;
				pixels[target + 2] = gray;
				pixels[target + 3] = colorType === 4 ? sample(row, x * channels + 1) : 255;
			} else {
				pixels[target] = sample(row, x * channels);
				pixels[target + 1] = sample(row, x * channels + 1);
				pixels[target + 2] = sample(row, x * channels + 2);
				pixels[target + 3] = colorType === 6 ? sample(row, x * channels + 3) : 255;
			}
		}
	}
	return { width, height, pixels };
}

/** Downscales by averaging the source area behind each target pixel. */
export function downscale(image: RgbaImage, width: number, height: number): RgbaImage {
	const pixels = Buffer.alloc(width * height * 4);
	const sx = image.width / width;
	const sy = image.height / height;
	for (let y = 0; y < height; y++) {
		const y0 = Math.floor(y * sy);
		const y1 = Math.max(y0 + 1, Math.floor((y + 1) * sy));
		for (let x = 0; x < width; x++) {
			const x0 = Math.floor(x * sx);
			const x1 = Math.max(x0 + 1, Math.floor((x + 1) * sx));
			const sums = [0, 0, 0, 0];
			for (let yy = y0; yy < y1; yy++) {
				for (let xx = x0; xx < x1; xx++) {
					const source = (yy * image.width + xx) * 4;
					for (let c = 0; c < 4; c++) sums[c] = (sums[c] ?? 0) + (image.pixels[source + c] ?? 0);
				}
			}
			const count = (y1 - y0) * (x1 - x0);
			for (let c = 0; c < 4; c++) pixels[(y * width + x) * 4 + c] = Math.round((sums[c] ?? 0) / count);
		}
	}
	return { width, height, pixels };
}

export function encodeRgbaPng(image: RgbaImage): Buffer {
	return encodePng(image.width, image.height, image.pixels);
}
