/**
 * Checks rendered lines against what tau lets reach a terminal from a component: visible text, tab,
 * SGR colour/style, and (only where tau itself makes them) OSC 8 hyperlinks with a printable URL.
 * Anything else (other escape sequences, C0/C1 controls, DEL) is reported.
 */
export function disallowedSequences(line: string, options: { hyperlinks?: boolean } = {}): string[] {
	const found: string[] = [];
	let i = 0;
	while (i < line.length) {
		const c = line.charCodeAt(i);
		if (c === 0x1b) {
			const sgr = /^\x1b\[[0-9;:]*m/.exec(line.slice(i, i + 64));
			if (sgr) {
				i += sgr[0].length;
				continue;
			}
			const link = /^\x1b\]8;[^;\x00-\x1f\x7f-\x9f]*;[^\x00-\x1f\x7f-\x9f]*(?:\x07|\x1b\\)/.exec(line.slice(i));
			if (link && options.hyperlinks) {
				i += link[0].length;
				continue;
			}
			found.push(JSON.stringify(line.slice(i, i + 12)));
			i++;
			continue;
		}
		if ((c < 0x20 && c !== 0x09) || (c >= 0x7f && c <= 0x9f)) found.push(`U+${c.toString(16).padStart(4, "0")}`);
		i++;
	}
	return found;
}

/** A deterministic generator (mulberry32), so a failing fuzz case can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Hostile fragments: each one would do something to a terminal if it reached it unfiltered. */
export const HOSTILE_FRAGMENTS = [
	"\x1b]52;c;cHduZWQ=\x07",
	"\x1b]52;c;cHduZWQ=\x1b\\",
	"\x1b]0;pwned title\x07",
	"\x1b]2;pwned title\x1b\\",
	"\x1bP+q544e\x1b\\",
	"\x1b_Ga=d\x1b\\",
	"\x1b^private\x1b\\",
	"\x1bXstring\x1b\\",
	"\x1b[2J",
	"\x1b[H",
	"\x1b[?1049h",
	"\x1b[6n",
	"\x1b[31m",
	"\x1b[38;2;255;0;0m",
	"\x1b[0m",
	"\x1bc",
	"\x1b(0",
	"\x1b#8",
	"\x1b7",
	"\x9b2J",
	"\x9d0;c1 title\x9c",
	"\x1b]8;;https://evil.example\x07click\x1b]8;;\x07",
	"\x1b]1337;File=inline=1:AAAA\x07",
	"\x1b]",
	"\x1b[",
	"\x1b",
	"\r",
	"\r\n",
	"\b\b\b",
	"\x07",
	"\x00",
	"\x7f",
	"\x85",
];

const TEXT_FRAGMENTS = [
	"hello",
	"world ",
	" ",
	"\n",
	"\t",
	"\n\n",
	"漢字",
	"😀",
	"👩‍💻",
	"e\u0301",
	"\u200b",
	"# Title\n",
	"- item\n",
	"**bold**",
	"`code`",
	"```js\nx\n```\n",
	"[link](https://example.com)",
	"| a | b |\n|---|---|\n| 1 | 2 |\n",
	"> quote\n",
	"a".repeat(150),
];

/** A random string of hostile and ordinary fragments, random code points and random UTF-8 bytes. */
export function fuzzString(random: () => number, maxParts = 12): string {
	const parts = 1 + Math.floor(random() * maxParts);
	let out = "";
	for (let p = 0; p < parts; p++) {
		const kind = random();
		if (kind < 0.35) out += HOSTILE_FRAGMENTS[Math.floor(random() * HOSTILE_FRAGMENTS.length)];
		else if (kind < 0.7) out += TEXT_FRAGMENTS[Math.floor(random() * TEXT_FRAGMENTS.length)];
		else if (kind < 0.85) {
			const bytes = new Uint8Array(1 + Math.floor(random() * 16));
			for (let b = 0; b < bytes.length; b++) bytes[b] = Math.floor(random() * 256);
			out += new TextDecoder().decode(bytes);
		} else {
			for (let n = 0; n < 4; n++) out += String.fromCharCode(Math.floor(random() * 0x3000));
		}
	}
	return out;
}
