/** Terminal colour queries (OSC 10/11/4) answered in order, completed by a DA1 sentinel. */

export interface RgbColor {
	r: number;
	g: number;
	b: number;
}

/** Whether the terminal's background is dark or light. */
export type TerminalColorScheme = "dark" | "light";

/** The colours the terminal reported: foreground, background and palette. */
export interface TerminalColors {
	foreground?: RgbColor;
	background?: RgbColor;
	palette?: RgbColor[];
}

export function terminalColorQuery(): string {
	let q = "\x1b]10;?\x07\x1b]11;?\x07";
	for (let n = 0; n < 16; n++) q += `\x1b]4;${n};?\x07`;
	return `${q}\x1b[c`;
}

function scaleChannel(hex: string): number {
	const max = 16 ** hex.length - 1;
	return Math.round((Number.parseInt(hex, 16) / max) * 255);
}

/** Parses `rgb:R/G/B` (1–4 hex digits each), `rgba:…`, `#rrggbb` or `#rrrrggggbbbb`. */
export function parseTerminalColor(spec: string): RgbColor | undefined {
	const rgb = /^rgba?:([0-9a-f]{1,4})\/([0-9a-f]{1,4})\/([0-9a-f]{1,4})(?:\/[0-9a-f]{1,4})?$/i.exec(spec);
	if (rgb) return { r: scaleChannel(rgb[1]!), g: scaleChannel(rgb[2]!), b: scaleChannel(rgb[3]!) };
	const hash = /^#([0-9a-f]+)$/i.exec(spec);
	if (hash && (hash[1]!.length === 6 || hash[1]!.length === 12)) {
		const n = hash[1]!.length / 3;
		const h = hash[1]!;
		return { r: scaleChannel(h.slice(0, n)), g: scaleChannel(h.slice(n, 2 * n)), b: scaleChannel(h.slice(2 * n)) };
	}
	return undefined;
}

const COLOR_SCHEME_REPORT = /^(?:\x1b\[\?997;([12])n)+$/;

/** The scheme a terminal reports (`CSI ? 997 ; 1|2 n`, the last of several); undefined for other input. */
export function parseTerminalColorSchemeReport(data: string): TerminalColorScheme | undefined {
	const report = COLOR_SCHEME_REPORT.exec(data);
	if (!report) return undefined;
	return report[1] === "2" ? "light" : "dark";
}

const COLOR_REPLY = /^\x1b\](10|11|4;(\d+));([^\x07\x1b]*)(?:\x07|\x1b\\)$/;
const DA1_REPLY = /^\x1b\[\?[\d;]*c$/;

interface PendingQuery {
	colors: TerminalColors;
	palette: (RgbColor | undefined)[];
	replies: number;
	settled: boolean;
	resolve: (colors: TerminalColors) => void;
	onLateReply: ((colors: TerminalColors) => void) | undefined;
	timer: ReturnType<typeof setTimeout> | undefined;
}

export class TerminalColorQueries {
	private pending: PendingQuery[] = [];

	hasPending(): boolean {
		return this.pending.length > 0;
	}

	start(
		write: (data: string) => void,
		timeoutMs: number,
		onLateReply?: (colors: TerminalColors) => void,
	): Promise<TerminalColors> {
		return new Promise((resolve) => {
			const query: PendingQuery = {
				colors: {},
				palette: [],
				replies: 0,
				settled: false,
				resolve,
				onLateReply,
				timer: undefined,
			};
			query.timer = setTimeout(() => this.settle(query), timeoutMs);
			this.pending.push(query);
			write(terminalColorQuery());
		});
	}

	private result(query: PendingQuery): TerminalColors {
		const colors = { ...query.colors };
		if (query.palette.filter(Boolean).length === 16) colors.palette = query.palette as RgbColor[];
		return colors;
	}

	private settle(query: PendingQuery): void {
		if (query.settled) return;
		query.settled = true;
		query.resolve(this.result(query));
	}

	private complete(query: PendingQuery): void {
		if (query.timer) clearTimeout(query.timer);
		this.pending.shift();
		if (query.settled) query.onLateReply?.(this.result(query));
		else this.settle(query);
	}

	/** Consumes a reply for the oldest pending query; false when `data` is not one. */
	handle(data: string): boolean {
		const query = this.pending[0];
		if (!query) return false;
		if (DA1_REPLY.test(data)) {
			this.complete(query);
			return true;
		}
		const m = COLOR_REPLY.exec(data);
		if (!m) return false;
		const color = parseTerminalColor(m[3]!);
		if (color) {
			if (m[1] === "10") query.colors.foreground = color;
			else if (m[1] === "11") query.colors.background = color;
			else query.palette[Number(m[2])] = color;
		}
		query.replies++;
		if (query.replies >= 18) {
			// All colours arrived; the DA1 sentinel still follows and must be consumed by this query.
			if (!query.settled) this.settle(query);
		}
		return true;
	}
}
