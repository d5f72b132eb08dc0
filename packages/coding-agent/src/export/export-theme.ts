import { type Color, colorToRgb } from "@tau/tui";
import type { Theme } from "../core/resources/index.js";
import { toColor } from "../core/resources/themes/theme.js";
import type { ViewerTheme } from "./viewer-payload.js";

const hex = (color: Color) => {
	const { r, g, b } = colorToRgb(color);
	return `#${[r, g, b]
		.map((part) =>
			Math.round(Math.min(255, Math.max(0, part)))
				.toString(16)
				.padStart(2, "0"),
		)
		.join("")}`;
};

/** Relative luminance (0 dark … 1 light) of a `#rrggbb` colour, to tell a theme's appearance. */
function luminance(color: string): number {
	const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(color.slice(at, at + 2), 16) / 255);
	return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/**
 * A theme's colours as CSS for the export viewer (docs/export.md): every token its file defines (every
 * token, for a theme built in code), plus the page, card and info backgrounds from its `export` section.
 * The appearance is the theme file's own, else read from how light its page background is.
 */
export function viewerThemeOf(theme: Theme): ViewerTheme {
	const colors: Record<string, string> = {};
	const definition = theme.definition;
	const tokens = definition
		? Object.entries(definition.colors).map(([token, value]) => [token, toColor(value)] as const)
		: Object.entries(theme.colors);
	for (const [token, color] of tokens) if (color) colors[token] = hex(color);
	for (const [token, value] of Object.entries(definition?.export ?? {})) {
		const color = value ? toColor(value) : undefined;
		if (color) colors[token] = hex(color);
	}
	const background = colors.pageBg ?? colors.userMessageBg;
	const appearance =
		definition?.appearance ?? (background ? (luminance(background) > 0.5 ? "light" : "dark") : theme.appearance);
	return { name: theme.name, appearance, colors };
}
