import { REQUIRED_THEME_TOKENS } from "../../src/core/resources/index.js";

/** The JSON of a theme file that sets every required token to `color`: the smallest theme tau accepts. */
export function completeTheme(name: string, color: string | number): { name: string; colors: Record<string, unknown> } {
	return { name, colors: Object.fromEntries(REQUIRED_THEME_TOKENS.map((token) => [token, color])) };
}
