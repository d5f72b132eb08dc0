import type { ViewerTheme } from "../../src/export/viewer-payload.js";
import { byId } from "./dom.js";

type Mode = "exported" | "light" | "dark";

const CSS_COLOR = /^#[0-9a-f]{6}$/i;
const TOKEN = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * Light and dark palettes live in the styles; an export from a themed session also carries that
 * theme's colours. The page opens in the exporting theme when there is one, else in the reader's
 * preference, and the theme button cycles through what is available.
 */
export function setUpTheme(theme: ViewerTheme | undefined): void {
	const root = document.documentElement;
	const prefersDark = matchMedia("(prefers-color-scheme: dark)").matches;
	const modes: Mode[] = theme ? ["exported", "light", "dark"] : prefersDark ? ["dark", "light"] : ["light", "dark"];
	const button = byId<HTMLButtonElement>("theme-toggle");
	let current = 0;
	const apply = () => {
		const mode = modes[current]!;
		for (const token of Object.keys(theme?.colors ?? {})) root.style.removeProperty(`--${token}`);
		if (mode === "exported" && theme) {
			root.dataset.theme = theme.appearance === "light" ? "light" : "dark";
			for (const [token, color] of Object.entries(theme.colors)) {
				if (TOKEN.test(token) && CSS_COLOR.test(color)) root.style.setProperty(`--${token}`, color);
			}
		} else root.dataset.theme = mode;
		const next = modes[(current + 1) % modes.length]!;
		button.textContent = mode === "exported" ? `Theme: ${theme?.name ?? "exported"}` : `Theme: ${mode}`;
		button.title = `Switch to the ${next === "exported" ? "exporting" : next} theme`;
	};
	button.addEventListener("click", () => {
		current = (current + 1) % modes.length;
		apply();
	});
	apply();
}
