import { type SeededRandom, seededRandom } from "@tau/testkit";

/** Pieces of terminal text that stress width and ANSI handling: scripts with combining marks, wide and
 * zero-width characters, emoji sequences, SGR state and OSC 8 links. */
export const TEXT_PIECES = [
	"a",
	"b",
	"Z",
	" ",
	"  ",
	"-",
	".",
	",",
	"word",
	"longerword",
	"中",
	"文字",
	"Ａ",
	"ｶ",
	"ก",
	"ที่",
	"ำ",
	"น้ำ",
	"ສ",
	"ຳ",
	"ເຈົ້າ",
	"😀",
	"👍🏽",
	"👨‍👩‍👧",
	"🇯🇵",
	"❤️",
	"1️⃣",
	"e\u0301",
	"\u200b",
	"\u00ad",
	"\t",
	"\x1b[31m",
	"\x1b[1m",
	"\x1b[0m",
	"\x1b[4m",
	"\x1b[24m",
	"\x1b[39m",
	"\x1b[38;2;10;20;30m",
	"\x1b[48;5;123m",
	"\x1b]8;;https://example.com/a\x1b\\",
	"\x1b]8;;\x1b\\",
] as const;

/** Deterministic text samples: edge cases first, then `count` random mixes. */
export function textSamples(seed: number, count: number, extraPieces: readonly string[] = []): string[] {
	const random: SeededRandom = seededRandom(seed);
	const pieces = [...TEXT_PIECES, ...extraPieces];
	const edges = ["", " ", "abc", "中文", "ที่นี่", "ເຈົ້າ", "👨‍👩‍👧👨‍👩‍👧", "\x1b[31mred\x1b[0m", ...pieces];
	return [...edges, ...Array.from({ length: count }, () => random.string(pieces, random.int(1, 14)))];
}

export { seededRandom };
