import { type Color, colorToRgb } from "@tau/tui";
import type { Theme } from "../core/resources/index.js";
import { toColor } from "../modes/interactive/theme/ui-theme.js";
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
 * A theme's colours as CSS for the export viewer (docs/export.md): every token it defines, plus
 * the page, card and info backgrounds from its `export` section. The appearance is the theme's own,
 * else read from how light its page background is.
 */
export function viewerThemeOf(theme: Theme): ViewerTheme {
	const colors: Record<string, string> = {};
	for (const [token, value] of Object.entries(theme.colors)) {
		const color = toColor(value);
		if (color) colors[token] = hex(color);
	}
	for (const [token, value] of Object.entries(theme.export ?? {})) {
		const color = value ? toColor(value) : undefined;
		if (color) colors[token] = hex(color);
	}
	const background = colors.pageBg ?? colors.userMessageBg;
	const appearance = theme.appearance ?? (background && luminance(background) > 0.5 ? "light" : "dark");
	return { name: theme.name, appearance, colors };
}
