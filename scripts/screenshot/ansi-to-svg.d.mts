/** One run of equally styled text in a row of the screen; see ansi-to-svg.mjs. */
export interface CaptureRun {
	col: number;
	cells: number;
	text: string;
	style: {
		fg?: string;
		bg?: string;
		bold: boolean;
		dim: boolean;
		italic: boolean;
		underline: boolean;
		inverse: boolean;
	};
}
export function parseCapture(text: string): CaptureRun[][];
export function paletteColor(index: number): string;
export function ansiToSvg(text: string, options?: { cols?: number; title?: string }): string;
