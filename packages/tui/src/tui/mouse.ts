import type { TuiMouseButton } from "./component.js";

/** One decoded mouse report (zero-based screen coordinates). */
export interface MouseReport {
	x: number;
	y: number;
	button: TuiMouseButton;
	release: boolean;
	motion: boolean;
	wheel: "up" | "down" | undefined;
	shift: boolean;
	alt: boolean;
	ctrl: boolean;
}

const SGR = /^\x1b\[<(\d+);(\d+);(\d+)([Mm])$/;
const BUTTONS: TuiMouseButton[] = ["left", "middle", "right", "none"];

function decode(b: number, x: number, y: number, release: boolean): MouseReport {
	const wheel = b & 64 ? ((b & 3) === 0 ? "up" : "down") : undefined;
	return {
		x,
		y,
		button: wheel ? "none" : BUTTONS[b & 3]!,
		release,
		motion: (b & 32) !== 0,
		wheel,
		shift: (b & 4) !== 0,
		alt: (b & 8) !== 0,
		ctrl: (b & 16) !== 0,
	};
}

/** SGR (`CSI < b;x;y M|m`) and legacy (`CSI M` + 3 bytes) mouse reports. */
export function parseMouseReport(data: string): MouseReport | undefined {
	const sgr = SGR.exec(data);
	if (sgr) return decode(Number(sgr[1]), Number(sgr[2]) - 1, Number(sgr[3]) - 1, sgr[4] === "m");
	if (data.length === 6 && data.startsWith("\x1b[M")) {
		const b = data.charCodeAt(3) - 32;
		return decode(b, data.charCodeAt(4) - 33, data.charCodeAt(5) - 33, (b & 3) === 3 && (b & 64) === 0);
	}
	return undefined;
}

/** Mouse tracking modes: button-motion inside multiplexers, all-motion elsewhere. */
export function mouseEnableSequence(env: NodeJS.ProcessEnv = process.env): string {
	const multiplexer =
		!!env.TMUX || !!env.ZELLIJ || !!env.STY || !!env.TERM?.startsWith("tmux") || !!env.TERM?.startsWith("screen");
	return multiplexer
		? "\x1b[?1000h\x1b[?1002h\x1b[?1004h\x1b[?1006h"
		: "\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1004h\x1b[?1006h";
}

export const MOUSE_DISABLE = "\x1b[?1006l\x1b[?1004l\x1b[?1003l\x1b[?1002l\x1b[?1000l";
