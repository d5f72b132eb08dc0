import type { CellDimensions } from "../capabilities/cell-size.js";
import type { ImageDimensions } from "./dimensions.js";

/** The number of terminal columns and rows an image occupies. */
export interface ImageCellSize {
	columns: number;
	rows: number;
}

const DEFAULT_CELL: CellDimensions = { widthPx: 9, heightPx: 18 };

/** Of `upper` and `upper - 1` cells, the count closer to `ideal` in ratio (less stretching). */
function lessDistortedCount(upper: number, ideal: number): number {
	if (upper <= 1) return upper;
	const lower = upper - 1;
	const distortion = (count: number) => Math.max(count / ideal, ideal / count);
	return distortion(lower) < distortion(upper) ? lower : upper;
}

/**
 * The cells an image covers when scaled (up or down) to fill `maxWidthCells`, or less when
 * `maxHeightCells` binds first. With `optimizeAspectRatio` the bound dimension that was rounded up may
 * lose one cell when that distorts the picture less (Kitty stretches images to whole cells).
 */
export function calculateImageCellSize(
	image: ImageDimensions,
	maxWidthCells: number,
	maxHeightCells?: number,
	cell: CellDimensions = DEFAULT_CELL,
	optimizeAspectRatio = false,
): ImageCellSize {
	const maxWidth = Math.max(1, Math.floor(maxWidthCells));
	const maxHeight = maxHeightCells === undefined ? undefined : Math.max(1, Math.floor(maxHeightCells));
	const imageWidth = Math.max(1, image.widthPx);
	const imageHeight = Math.max(1, image.heightPx);
	const widthScale = (maxWidth * cell.widthPx) / imageWidth;
	const heightScale = maxHeight === undefined ? widthScale : (maxHeight * cell.heightPx) / imageHeight;
	const scale = Math.min(widthScale, heightScale);
	let columns = Math.max(1, Math.min(maxWidth, Math.ceil((imageWidth * scale) / cell.widthPx)));
	let rows = Math.max(1, Math.ceil((imageHeight * scale) / cell.heightPx));
	if (maxHeight !== undefined) rows = Math.min(maxHeight, rows);
	if (!optimizeAspectRatio) return { columns, rows };
	if (widthScale <= heightScale) {
		rows = lessDistortedCount(rows, (columns * cell.widthPx * imageHeight) / (imageWidth * cell.heightPx));
	} else {
		columns = lessDistortedCount(columns, (rows * cell.heightPx * imageWidth) / (imageHeight * cell.widthPx));
	}
	return { columns, rows };
}

/** The rows an image takes when scaled to `targetWidthCells` columns. */
export function calculateImageRows(
	image: ImageDimensions,
	targetWidthCells: number,
	cell: CellDimensions = DEFAULT_CELL,
): number {
	return calculateImageCellSize(image, targetWidthCells, undefined, cell).rows;
}
