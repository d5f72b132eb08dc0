/**
 * The colour and capability helpers without the rest of the terminal UI: hosts that only style text
 * (themes in print and RPC modes) import this entry so they do not load the renderer.
 */
export { getTerminalColorMode } from "../capabilities/capabilities.js";
export { backgroundAnsi, foregroundAnsi, styleText, type TextStyle } from "./ansi.js";
export { type Color, colorToRgb, parseColor } from "./color.js";
