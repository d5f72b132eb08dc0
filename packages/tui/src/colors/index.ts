/**
 * The colour and capability helpers without the rest of the terminal UI: hosts that only style text
 * (themes in print and RPC modes) import this entry so they do not load the renderer.
 */
export { getTerminalColorMode } from "../capabilities/capabilities.js";
export {
	backgroundAnsi,
	type Color,
	colorToRgb,
	foregroundAnsi,
	parseColor,
	styleText,
	type TextStyle,
} from "./color.js";
