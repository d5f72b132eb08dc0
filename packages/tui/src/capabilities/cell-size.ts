/** The size of one terminal cell in pixels, used to size images in cells. */
export interface CellDimensions {
	widthPx: number;
	heightPx: number;
}

let cell: CellDimensions = { widthPx: 9, heightPx: 18 };

/** Pixel size of one terminal cell; 9×18 until the terminal answers `CSI 16 t`. */
export function getCellDimensions(): CellDimensions {
	return cell;
}

/** Sets the cell size in pixels, as the terminal reported it, for sizing images. */
export function setCellDimensions(dimensions: CellDimensions): void {
	cell = dimensions;
}
