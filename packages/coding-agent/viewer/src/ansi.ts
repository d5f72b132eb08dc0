import { h, safeUrl } from "./dom.js";

/** Terminal text style while reading SGR codes. */
interface Style {
	fg?: string;
	bg?: string;
	bold?: boolean;
	dim?: boolean;
	italic?: boolean;
	underline?: boolean;
	inverse?: boolean;
	strike?: boolean;
}

/** The 16 base colours follow the page theme (`--ansi-0` … `--ansi-15`). */
const baseColor = (index: number) => `var(--ansi-${index})`;

function xterm256(index: number): string {
	if (index < 16) return baseColor(index);
	if (index >= 232) {
		const level = 8 + (index - 232) * 10;
		return `rgb(${level},${level},${level})`;
	}
	const cube = index - 16;
	const step = (value: number) => (value === 0 ? 0 : 55 + value * 40);
	return `rgb(${step(Math.floor(cube / 36))},${step(Math.floor(cube / 6) % 6)},${step(cube % 6)})`;
}

/** An extended colour (`38;5;n` or `38;2;r;g;b`) starting at `codes[at]`; returns it and how many codes it used. */
function extendedColor(codes: readonly number[], at: number): { color?: string; used: number } {
	if (codes[at] === 5) {
		const index = codes[at + 1];
		return index !== undefined && index >= 0 && index <= 255 ? { color: xterm256(index), used: 2 } : { used: 2 };
	}
	if (codes[at] === 2) {
		const [r, g, b] = [codes[at + 1], codes[at + 2], codes[at + 3]].map((value) =>
			Math.min(255, Math.max(0, value ?? 0)),
		);
		return { color: `rgb(${r},${g},${b})`, used: 4 };
	}
	return { used: 1 };
}

function applySgr(style: Style, params: string): Style {
	const codes = params === "" ? [0] : params.split(/[;:]/).map((part) => Number.parseInt(part || "0", 10));
	let next = { ...style };
	for (let index = 0; index < codes.length; index++) {
		const code = codes[index]!;
		if (code === 0) next = {};
		else if (code === 1) next.bold = true;
		else if (code === 2) next.dim = true;
		else if (code === 3) next.italic = true;
		else if (code === 4) next.underline = true;
		else if (code === 7) next.inverse = true;
		else if (code === 9) next.strike = true;
		else if (code === 22) next.bold = next.dim = false;
		else if (code === 23) next.italic = false;
		else if (code === 24) next.underline = false;
		else if (code === 27) next.inverse = false;
		else if (code === 29) next.strike = false;
		else if (code >= 30 && code <= 37) next.fg = baseColor(code - 30);
		else if (code >= 90 && code <= 97) next.fg = baseColor(code - 90 + 8);
		else if (code >= 40 && code <= 47) next.bg = baseColor(code - 40);
		else if (code >= 100 && code <= 107) next.bg = baseColor(code - 100 + 8);
		else if (code === 39) delete next.fg;
		else if (code === 49) delete next.bg;
		else if (code === 38 || code === 48) {
			const { color, used } = extendedColor(codes, index + 1);
			if (color) next[code === 38 ? "fg" : "bg"] = color;
			index += used;
		}
	}
	return next;
}

function styledSpan(text: string, style: Style, href: string | undefined): Node {
	const plain =
		!style.fg && !style.bg && !style.bold && !style.dim && !style.italic && !style.underline && !style.strike;
	let node: HTMLElement | Text = document.createTextNode(text);
	if (!plain || style.inverse) {
		const span = h("span", {}, text);
		const [fg, bg] = style.inverse ? [style.bg ?? "var(--pageBg)", style.fg ?? "var(--text)"] : [style.fg, style.bg];
		if (fg) span.style.color = fg;
		if (bg) span.style.backgroundColor = bg;
		if (style.bold) span.style.fontWeight = "bold";
		if (style.dim) span.style.opacity = "0.7";
		if (style.italic) span.style.fontStyle = "italic";
		const lines = [style.underline ? "underline" : "", style.strike ? "line-through" : ""].filter(Boolean);
		if (lines.length > 0) span.style.textDecorationLine = lines.join(" ");
		node = span;
	}
	if (!href) return node;
	return h("a", { href, target: "_blank", rel: "noopener noreferrer nofollow" }, node);
}

// CSI (with SGR captured), OSC (terminated by BEL or ST), other two-byte escapes, stray control characters.
const ESCAPES =
	/\x1b\[([0-9;:?<=>]*)[ -/]*([@-~])|\x1b\]([^\x07\x1b]*)(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\x1b|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/**
 * Terminal output as DOM: SGR colours and styles become inline CSS (set through the CSSOM, so the
 * page's CSP needs no inline styles), OSC 8 links open only for http(s)/mailto, and every other
 * escape sequence or control character is dropped.
 */
export function ansiToDom(input: string): DocumentFragment {
	const fragment = document.createDocumentFragment();
	let style: Style = {};
	let href: string | undefined;
	let last = 0;
	const flush = (end: number) => {
		if (end > last) fragment.append(styledSpan(input.slice(last, end), style, href));
	};
	ESCAPES.lastIndex = 0;
	for (let match = ESCAPES.exec(input); match; match = ESCAPES.exec(input)) {
		flush(match.index);
		last = match.index + match[0].length;
		if (match[2] === "m" && match[1] !== undefined && !/[?<=>]/.test(match[1])) style = applySgr(style, match[1]);
		else if (match[3]?.startsWith("8;")) {
			const target = match[3].slice(match[3].indexOf(";", 2) + 1);
			href = target ? safeUrl(target) : undefined;
		}
	}
	flush(input.length);
	return fragment;
}

const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

/** Whether text holds escape sequences or control characters to convert (plain output skips the converter). */
export function hasAnsi(input: string): boolean {
	return CONTROL.test(input);
}
