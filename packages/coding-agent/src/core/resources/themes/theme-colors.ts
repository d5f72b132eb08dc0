/** Color values of theme JSON (docs/design/resources.md#theme-colour-values), parsed but not yet mapped to a terminal. */
export type ThemeColorValue =
	| { kind: "rgb"; r: number; g: number; b: number }
	| { kind: "oklch"; l: number; c: number; h: number }
	| { kind: "okhsl"; h: number; s: number; l: number }
	| { kind: "palette"; index: number }
	| { kind: "default" };

const NUMBER = "([-+]?(?:\\d+\\.?\\d*|\\.\\d+))";

function parseHex(text: string): ThemeColorValue | undefined {
	const match = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.exec(text);
	if (!match) return undefined;
	let hex = match[1] as string;
	if (hex.length === 3) hex = [...hex].map((digit) => digit + digit).join("");
	const value = Number.parseInt(hex, 16);
	return { kind: "rgb", r: (value >> 16) & 0xff, g: (value >> 8) & 0xff, b: value & 0xff };
}

/** `oklch(L C H)` with L as a percentage or 0..1; `okhsl(H S% L%)`. */
function parseFunctional(text: string): ThemeColorValue | string | undefined {
	const oklch = new RegExp(`^oklch\\(\\s*${NUMBER}(%?)\\s+${NUMBER}\\s+${NUMBER}\\s*\\)$`).exec(text);
	if (oklch) {
		const l = Number(oklch[1]) / (oklch[2] ? 100 : 1);
		const c = Number(oklch[3]);
		const h = Number(oklch[4]);
		if (l < 0 || l > 1) return `lightness out of range in "${text}"`;
		if (c < 0) return `negative chroma in "${text}"`;
		return { kind: "oklch", l, c, h: ((h % 360) + 360) % 360 };
	}
	const okhsl = new RegExp(`^okhsl\\(\\s*${NUMBER}\\s+${NUMBER}%\\s+${NUMBER}%\\s*\\)$`).exec(text);
	if (okhsl) {
		const h = Number(okhsl[1]);
		const s = Number(okhsl[2]) / 100;
		const l = Number(okhsl[3]) / 100;
		if (s < 0 || s > 1 || l < 0 || l > 1) return `saturation or lightness out of range in "${text}"`;
		return { kind: "okhsl", h: ((h % 360) + 360) % 360, s, l };
	}
	if (/^(oklch|okhsl)\(/.test(text)) return `invalid color "${text}"`;
	return undefined;
}

/**
 * Resolves a color value: hex, OKLCH, OKHSL, palette index (0..255), `""` (terminal default) or
 * the name of a variable (resolved through chains). Returns an error message for bad values,
 * unknown variables and reference cycles.
 */
export function resolveThemeColor(
	value: unknown,
	vars: Readonly<Record<string, unknown>>,
	seen: readonly string[] = [],
): ThemeColorValue | { error: string } {
	if (typeof value === "number") {
		if (!Number.isInteger(value) || value < 0 || value > 255) {
			return { error: `palette index must be an integer from 0 to 255, got ${value}` };
		}
		return { kind: "palette", index: value };
	}
	if (typeof value !== "string") return { error: `color must be a string or a number, got ${JSON.stringify(value)}` };
	if (value === "") return { kind: "default" };
	if (value.startsWith("#")) return parseHex(value) ?? { error: `invalid hex color "${value}"` };
	const functional = parseFunctional(value);
	if (typeof functional === "string") return { error: functional };
	if (functional) return functional;
	if (!Object.hasOwn(vars, value)) return { error: `unknown variable "${value}"` };
	if (seen.includes(value)) return { error: `variable cycle ${[...seen, value].join(" -> ")}` };
	return resolveThemeColor(vars[value], vars, [...seen, value]);
}
