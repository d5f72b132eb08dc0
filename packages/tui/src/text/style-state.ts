import { osc8Url, oscTerminator, splitAnsi } from "./ansi.js";

/** How many parameters after 38/48 form the colour: 2 for `5;N`, 4 for `2;R;G;B`, 0 when incomplete. */
function colourParameters(codes: readonly string[], at: number): number {
	if (codes[at + 1] === "5" && codes[at + 2] !== undefined) return 2;
	if (codes[at + 1] === "2" && codes[at + 4] !== undefined) return 4;
	return 0;
}

/** The SGR attributes and hyperlink active at a point of a styled string. */
export class StyleState {
	private bold = false;
	private dim = false;
	private italic = false;
	private underline = false;
	private blink = false;
	private inverse = false;
	private hidden = false;
	private strikethrough = false;
	private fg: string | undefined;
	private bg: string | undefined;
	/** The OSC 8 sequence that opened the current link, with its original terminator. */
	private link: string | undefined;

	/** Updates the state from one escape sequence (anything but SGR and OSC 8 is ignored). */
	apply(seq: string): void {
		const url = osc8Url(seq);
		if (url !== undefined) {
			this.link = url ? seq : undefined;
			return;
		}
		const params = /^\x1b\[([\d;]*)m$/.exec(seq)?.[1];
		if (params === undefined) return;
		const codes = params === "" ? ["0"] : params.split(";");
		for (let i = 0; i < codes.length; i++) {
			// An empty parameter inside a list is ignored, as by the terminals we mirror.
			const code = codes[i] === "" ? Number.NaN : Number(codes[i]);
			const take = code === 38 || code === 48 ? colourParameters(codes, i) : 0;
			if (take > 0) {
				const colour = codes.slice(i, i + 1 + take).join(";");
				if (code === 38) this.fg = colour;
				else this.bg = colour;
				i += take;
				continue;
			}
			this.applyCode(code);
		}
	}

	private applyCode(code: number): void {
		switch (code) {
			case 0:
				this.bold = this.dim = this.italic = this.underline = false;
				this.blink = this.inverse = this.hidden = this.strikethrough = false;
				this.fg = this.bg = undefined;
				return;
			case 1:
				this.bold = true;
				return;
			case 2:
				this.dim = true;
				return;
			case 3:
				this.italic = true;
				return;
			case 4:
				this.underline = true;
				return;
			case 5:
				this.blink = true;
				return;
			case 7:
				this.inverse = true;
				return;
			case 8:
				this.hidden = true;
				return;
			case 9:
				this.strikethrough = true;
				return;
			case 21:
				this.bold = false;
				return;
			case 22:
				this.bold = this.dim = false;
				return;
			case 23:
				this.italic = false;
				return;
			case 24:
				this.underline = false;
				return;
			case 25:
				this.blink = false;
				return;
			case 27:
				this.inverse = false;
				return;
			case 28:
				this.hidden = false;
				return;
			case 29:
				this.strikethrough = false;
				return;
			case 39:
				this.fg = undefined;
				return;
			case 49:
				this.bg = undefined;
				return;
		}
		if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) this.fg = String(code);
		else if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) this.bg = String(code);
	}

	/** Updates the state from every escape sequence in `text`. */
	applyText(text: string): void {
		for (const part of splitAnsi(text)) if (part.escape) this.apply(part.text);
	}

	/** Escape sequences that re-open the active style on a new line. */
	activeCodes(): string {
		const codes: string[] = [];
		if (this.bold) codes.push("1");
		if (this.dim) codes.push("2");
		if (this.italic) codes.push("3");
		if (this.underline) codes.push("4");
		if (this.blink) codes.push("5");
		if (this.inverse) codes.push("7");
		if (this.hidden) codes.push("8");
		if (this.strikethrough) codes.push("9");
		if (this.fg) codes.push(this.fg);
		if (this.bg) codes.push(this.bg);
		return (codes.length > 0 ? `\x1b[${codes.join(";")}m` : "") + (this.link ?? "");
	}

	/** What closes line-scoped decorations before a wrap (colours deliberately stay open). */
	lineEndReset(): string {
		let out = "";
		if (this.underline) out += "\x1b[24m";
		if (this.strikethrough) out += "\x1b[29m";
		if (this.link) out += `\x1b]8;;${oscTerminator(this.link)}`;
		return out;
	}
}
