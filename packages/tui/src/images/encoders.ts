const KITTY_CHUNK = 4096;

/** Options of `encodeKitty`: size in cells, image id and cursor movement. */
export interface KittyImageOptions {
	columns?: number;
	rows?: number;
	imageId?: number;
	/** Whether Kitty moves the cursor past the image after placing it (default true; false sends C=1). */
	moveCursor?: boolean;
}

/** Kitty graphics "transmit and display" of PNG data, chunked at 4096 base64 characters. */
export function encodeKitty(base64: string, options: KittyImageOptions = {}): string {
	const keys = ["a=T", "f=100", "q=2"];
	if (options.moveCursor === false) keys.push("C=1");
	if (options.columns) keys.push(`c=${options.columns}`);
	if (options.rows) keys.push(`r=${options.rows}`);
	if (options.imageId) keys.push(`i=${options.imageId}`);
	if (base64.length <= KITTY_CHUNK) return `\x1b_G${keys.join(",")};${base64}\x1b\\`;
	let out = "";
	for (let i = 0; i < base64.length; i += KITTY_CHUNK) {
		const chunk = base64.slice(i, i + KITTY_CHUNK);
		const more = i + KITTY_CHUNK < base64.length ? 1 : 0;
		out += i === 0 ? `\x1b_G${keys.join(",")},m=${more};${chunk}\x1b\\` : `\x1b_Gm=${more};${chunk}\x1b\\`;
	}
	return out;
}

/** The Kitty graphics sequence that deletes the image with this id and frees its data. */
export function deleteKittyImage(imageId: number): string {
	return `\x1b_Ga=d,d=I,i=${imageId},q=2\x1b\\`;
}

/** The Kitty graphics sequence that deletes every image and frees its data. */
export function deleteAllKittyImages(): string {
	return "\x1b_Ga=d,d=A,q=2\x1b\\";
}

/** The Kitty graphics sequence that removes every image placement from the screen, keeping the image data. */
export function deleteKittyPlacements(): string {
	return "\x1b_Ga=d,d=a,q=2\x1b\\";
}

/** Options of `encodeITerm2`: display size, file name and aspect ratio. */
export interface ITerm2ImageOptions {
	/** Cells, or any iTerm2 size such as `"auto"`, `"50%"`, `"100px"`. */
	width?: number | string;
	height?: number | string;
	name?: string;
	preserveAspectRatio?: boolean;
	/** Display the file (default) rather than download it. */
	inline?: boolean;
}

/** iTerm2 inline image (OSC 1337 File=…). */
export function encodeITerm2(base64: string, options: ITerm2ImageOptions = {}): string {
	const params = [`inline=${options.inline === false ? 0 : 1}`, `size=${Buffer.byteLength(base64, "base64")}`];
	if (options.width !== undefined) params.push(`width=${options.width}`);
	if (options.height !== undefined) params.push(`height=${options.height}`);
	if (options.name) params.push(`name=${Buffer.from(options.name, "utf8").toString("base64")}`);
	if (options.preserveAspectRatio === false) params.push("preserveAspectRatio=0");
	return `\x1b]1337;File=${params.join(";")}:${base64}\x07`;
}
