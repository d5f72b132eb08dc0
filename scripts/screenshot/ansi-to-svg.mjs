// Turns a terminal capture with SGR colour sequences (`tmux capture-pane -e -p`) into an SVG
// picture: one monospace cell grid, coloured runs of text over their background.
// Usage: node scripts/screenshot/ansi-to-svg.mjs <capture.ansi> <out.svg> [--cols N] [--title T]
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const CELL_WIDTH = 8.4;
const LINE_HEIGHT = 18;
const FONT_SIZE = 14;
const PADDING = 12;
const TITLE_BAR = 28;
const DEFAULT_FG = "#d4d4d4";
const DEFAULT_BG = "#1e1e1e";

/** xterm's sixteen colours: normal 0–7, bright 8–15. */
const BASIC = [
	"#000000",
	"#cd3131",
	"#0dbc79",
	"#e5e510",
	"#2472c8",
	"#bc3fbc",
	"#11a8cd",
	"#e5e5e5",
	"#666666",
	"#f14c4c",
	"#23d18b",
	"#f5f543",
	"#3b8eea",
	"#d670d6",
	"#29b8db",
	"#ffffff",
];

function hex(r, g, b) {
	return `#${[r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

/** A colour of the 256-colour palette: the sixteen, a 6×6×6 cube, then 24 greys. */
export function paletteColor(index) {
	if (index < 16) return BASIC[index];
	if (index < 232) {
		const n = index - 16;
		const level = (v) => (v === 0 ? 0 : 55 + v * 40);
		return hex(level(Math.floor(n / 36)), level(Math.floor(n / 6) % 6), level(n % 6));
	}
	const grey = 8 + (index - 232) * 10;
	return hex(grey, grey, grey);
}

/** Terminal cells a character takes: two for East Asian wide characters and most emoji. */
function cellWidth(char) {
	const code = char.codePointAt(0);
	if (code < 0x1100) return 1;
	const wide =
		code <= 0x115f ||
		(code >= 0x2e80 && code <= 0xa4cf) ||
		(code >= 0xac00 && code <= 0xd7a3) ||
		(code >= 0xf900 && code <= 0xfaff) ||
		(code >= 0xfe30 && code <= 0xfe4f) ||
		(code >= 0xff00 && code <= 0xff60) ||
		(code >= 0xffe0 && code <= 0xffe6) ||
		(code >= 0x1f300 && code <= 0x1faff);
	return wide ? 2 : 1;
}

const RESET = {
	fg: undefined,
	bg: undefined,
	bold: false,
	dim: false,
	italic: false,
	underline: false,
	inverse: false,
};

/** Applies the parameters of one SGR sequence (`ESC [ … m`) to a style. */
function applySgr(style, params) {
	const codes = params === "" ? [0] : params.split(/[;:]/).map((p) => Number(p || 0));
	const next = { ...style };
	for (let i = 0; i < codes.length; i++) {
		const code = codes[i];
		if (code === 0) Object.assign(next, RESET);
		else if (code === 1) next.bold = true;
		else if (code === 2) next.dim = true;
		else if (code === 3) next.italic = true;
		else if (code === 4) next.underline = true;
		else if (code === 7) next.inverse = true;
		else if (code === 22) next.bold = next.dim = false;
		else if (code === 23) next.italic = false;
		else if (code === 24) next.underline = false;
		else if (code === 27) next.inverse = false;
		else if (code >= 30 && code <= 37) next.fg = BASIC[code - 30];
		else if (code >= 90 && code <= 97) next.fg = BASIC[code - 90 + 8];
		else if (code >= 40 && code <= 47) next.bg = BASIC[code - 40];
		else if (code >= 100 && code <= 107) next.bg = BASIC[code - 100 + 8];
		else if (code === 39) next.fg = undefined;
		else if (code === 49) next.bg = undefined;
		else if (code === 38 || code === 48) {
			const key = code === 38 ? "fg" : "bg";
			if (codes[i + 1] === 5) {
				next[key] = paletteColor(codes[i + 2] ?? 0);
				i += 2;
			} else if (codes[i + 1] === 2) {
				next[key] = hex(codes[i + 2] ?? 0, codes[i + 3] ?? 0, codes[i + 4] ?? 0);
				i += 4;
			}
		}
	}
	return next;
}

/** The screen as rows of runs `{ col, cells, text, style }`; escape sequences other than SGR are dropped. */
export function parseCapture(text) {
	let style = { ...RESET };
	return text
		.replace(/\n$/, "")
		.split("\n")
		.map((line) => {
			const runs = [];
			let col = 0;
			const tokens = line.match(/\x1b\[[0-9;:?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.|[^\x1b]/gsu) ?? [];
			for (const token of tokens) {
				if (token.startsWith("\x1b")) {
					const sgr = /^\x1b\[([0-9;:]*)m$/.exec(token);
					if (sgr) style = applySgr(style, sgr[1]);
					continue;
				}
				if (token < " ") continue;
				const cells = cellWidth(token);
				const last = runs.at(-1);
				if (last && last.style === style) {
					last.text += token;
					last.cells += cells;
				} else runs.push({ col, cells, text: token, style });
				col += cells;
			}
			return runs;
		});
}

function escapeXml(text) {
	return text.replace(/[<>&"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c]);
}

/** The SVG of a capture, `cols` cells wide (default: the widest row). */
export function ansiToSvg(text, options = {}) {
	const rows = parseCapture(text);
	const cols = options.cols ?? Math.max(1, ...rows.map((runs) => runs.reduce((sum, run) => sum + run.cells, 0)));
	const top = PADDING + (options.title ? TITLE_BAR : 0);
	const width = Math.ceil(cols * CELL_WIDTH + 2 * PADDING);
	const height = Math.ceil(rows.length * LINE_HEIGHT + top + PADDING);
	const parts = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
		`<rect width="100%" height="100%" rx="8" fill="${DEFAULT_BG}"/>`,
	];
	if (options.title) {
		parts.push(
			`<circle cx="${PADDING + 6}" cy="16" r="6" fill="#ff5f57"/><circle cx="${PADDING + 26}" cy="16" r="6" fill="#febc2e"/><circle cx="${PADDING + 46}" cy="16" r="6" fill="#28c840"/>`,
			`<text x="${width / 2}" y="20" fill="#8a8a8a" font-family="sans-serif" font-size="12" text-anchor="middle">${escapeXml(options.title)}</text>`,
		);
	}
	parts.push(
		`<g font-family="ui-monospace, Menlo, Consolas, 'DejaVu Sans Mono', monospace" font-size="${FONT_SIZE}">`,
	);
	rows.forEach((runs, row) => {
		const y = top + row * LINE_HEIGHT;
		for (const run of runs) {
			let fg = run.style.fg ?? DEFAULT_FG;
			let bg = run.style.bg;
			if (run.style.inverse) [fg, bg] = [bg ?? DEFAULT_BG, fg];
			const x = (PADDING + run.col * CELL_WIDTH).toFixed(1);
			const w = (run.cells * CELL_WIDTH).toFixed(1);
			if (bg) parts.push(`<rect x="${x}" y="${y}" width="${w}" height="${LINE_HEIGHT}" fill="${bg}"/>`);
			if (run.text.trim() === "") continue;
			const attributes = [
				`x="${x}"`,
				`y="${y + LINE_HEIGHT - 5}"`,
				`fill="${fg}"`,
				`textLength="${w}"`,
				'lengthAdjust="spacingAndGlyphs"',
				run.style.bold ? 'font-weight="bold"' : "",
				run.style.dim ? 'opacity="0.6"' : "",
				run.style.italic ? 'font-style="italic"' : "",
				run.style.underline ? 'text-decoration="underline"' : "",
			].filter(Boolean);
			parts.push(`<text ${attributes.join(" ")} xml:space="preserve">${escapeXml(run.text)}</text>`);
		}
	});
	parts.push("</g>", "</svg>");
	return `${parts.join("\n")}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const [input, output, ...rest] = process.argv.slice(2);
	if (!input || !output) {
		console.error("usage: node scripts/screenshot/ansi-to-svg.mjs <capture.ansi> <out.svg> [--cols N] [--title T]");
		process.exit(2);
	}
	const option = (name) => {
		const index = rest.indexOf(name);
		return index >= 0 ? rest[index + 1] : undefined;
	};
	const cols = option("--cols");
	const title = option("--title");
	writeFileSync(
		output,
		ansiToSvg(readFileSync(input, "utf8"), { ...(cols ? { cols: Number(cols) } : {}), ...(title ? { title } : {}) }),
	);
}
