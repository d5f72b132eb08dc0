export interface CellDimensions {
	widthPx: number;
	heightPx: number;
}

let cell: CellDimensions = { widthPx: 9, heightPx: 18 };

/** Pixel size of one terminal cell; 9×18 until the terminal answers `CSI 16 t`. */
export function getCellDimensions(): CellDimensions {
	return cell;
}

export function setCellDimensions(dimensions: CellDimensions): void {
	cell = dimensions;
}
