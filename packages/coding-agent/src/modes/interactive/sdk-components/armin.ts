import type { Component, TUI } from "@tau/tui";
import { activeTheme } from "../theme/active-theme.js";

/** tau's mark as block art; revealed row by row (Pi draws its own easter egg under this name). */
const ART = [
	"                    ",
	"  ████████████████  ",
	"  ████████████████  ",
	"       ████         ",
	"       ████         ",
	"       ████         ",
	"       ████         ",
	"       ████    ██   ",
	"        ████████    ",
	"                    ",
];

/** An easter-egg component: an animation that stops when it is complete or disposed. */
export class ArminComponent implements Component {
	private shown = 0;
	private timer: ReturnType<typeof setInterval> | undefined;

	constructor(ui: TUI) {
		this.timer = setInterval(() => {
			this.shown++;
			if (this.shown >= ART.length) this.dispose();
			ui.requestRender();
		}, 60);
	}

	invalidate(): void {}

	render(width: number): string[] {
		const theme = activeTheme();
		return ART.slice(0, this.shown).map((row) => theme.fg("accent", row.slice(0, Math.max(0, width))));
	}

	dispose(): void {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
	}
}
